import { describe, expect, it } from 'vitest';
import {
  MAX_SCAN_WINDOW,
  type SecretRuleSet,
  SecretScanner,
  secretScanner,
  shannonEntropy,
} from './secret-rules.ts';

const ruleSet = (overrides: Partial<SecretRuleSet['rules'][number]> = {}): SecretRuleSet => ({
  attribution: 'test',
  license: 'test',
  global: { target: 'secret', regexes: [{ source: 'EXAMPLE', flags: '' }], stopwords: ['dummy'] },
  rules: [
    {
      id: 'acme-token',
      description: 'Acme token',
      pattern: { source: 'acme_(?:key|token)\\s*=\\s*([A-Za-z0-9]{16,})', flags: 'i' },
      keywords: ['acme_'],
      entropy: 3,
      allowlists: [
        { target: 'match', regexes: [{ source: 'acme_key\\s*=\\s*0+$', flags: '' }], stopwords: [] },
      ],
      ...overrides,
    },
  ],
  skipped: [],
});

describe('SecretScanner', () => {
  const scanner = new SecretScanner(ruleSet());

  it('reports the capture group as the secret', () => {
    const text = 'config: ACME_TOKEN = Qw3rTy7UiOp9AsDf';
    const [hit] = scanner.scan(text);
    expect(hit).toMatchObject({ ruleId: 'acme-token' });
    expect(text.slice(hit!.start, hit!.end)).toBe('Qw3rTy7UiOp9AsDf');
  });

  it.each([
    ['low entropy', 'acme_token = aaaaaaaaaaaaaaaaaaaa'],
    ['global allowlist regex', 'acme_token = Qw3rTy7UiOp9EXAMPLE'],
    ['global stopword', 'acme_token = Qw3rTydummy7UiOp9As'],
    ['no keyword', 'token = Qw3rTy7UiOp9AsDf'],
  ])('skips %s', (_why, text) => {
    expect(scanner.scan(text)).toEqual([]);
  });

  it('finds secrets far into a long text, once each', () => {
    const filler = 'lorem ipsum '.repeat(5 * MAX_SCAN_WINDOW);
    const text = `${filler}acme_key=Zx8Cv7Bn6Mm5Qq4W ${filler}acme_key=Zx8Cv7Bn6Mm5Qq4W`;
    const hits = scanner.scan(text);
    expect(hits).toHaveLength(2);
    for (const h of hits) expect(text.slice(h.start, h.end)).toBe('Zx8Cv7Bn6Mm5Qq4W');
  });

  it('honours an explicit secret group', () => {
    const s = new SecretScanner(
      ruleSet({ pattern: { source: '(acme_token)=([a-z0-9]{12})', flags: '' }, secretGroup: 2, entropy: 0 }),
    );
    const text = 'acme_token=k3y9x8w7v6u5';
    const [hit] = s.scan(text);
    expect(text.slice(hit!.start, hit!.end)).toBe('k3y9x8w7v6u5');
  });
});

describe('shipped gitleaks rules', () => {
  it('loads and compiles', () => {
    expect(secretScanner().ruleCount).toBeGreaterThan(150);
  });

  it('computes Shannon entropy in bits per character', () => {
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBe(2);
  });
});
