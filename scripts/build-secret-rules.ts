/**
 * Turns the gitleaks rule set (config/gitleaks.toml, MIT) into the JSON the PII scrubber ships:
 * `npx tsx scripts/build-secret-rules.ts [--src path/to/gitleaks.toml] [--commit sha]`.
 *
 * Rules are translated from RE2 to JavaScript; a rule is left out when it cannot be translated,
 * has a nested unbounded quantifier, or takes too long on adversarial input (V8 backtracks,
 * RE2 does not). Path-only rules and path-bound allowlists do not apply to free text.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';
import type {
  JsPattern,
  SecretAllowlist,
  SecretRule,
  SecretRuleSet,
} from '../src/shared/secrets/secret-rules.ts';
import { MAX_SCAN_WINDOW } from '../src/shared/secrets/secret-rules.ts';
import { re2ToJs } from './lib/re2-to-js.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
}

const src = arg('--src', join(repoRoot, '../shared/data/raw/gitleaks/config/gitleaks.toml'));
const commit = arg('--commit', 'b58d3f102cf3');
const out = join(repoRoot, 'src/shared/secrets/secret-rules.json');

interface TomlAllowlist {
  regexes?: string[];
  stopwords?: string[];
  paths?: string[];
  regexTarget?: string;
  condition?: string;
}

interface TomlRule {
  id: string;
  description?: string;
  regex?: string;
  entropy?: number;
  secretGroup?: number;
  keywords?: string[];
  allowlists?: TomlAllowlist[];
  allowlist?: TomlAllowlist;
}

// Worst-case probes: long runs that keep a backtracking engine trying every split.
function probes(keyword: string): string[] {
  const n = MAX_SCAN_WINDOW;
  return [
    `${keyword}=`.repeat(Math.ceil(n / (keyword.length + 1))).slice(0, n),
    `${keyword} ${'a'.repeat(n - keyword.length - 1)}`,
    `${keyword}: ${'aB3-_.'.repeat(n / 6)}`.slice(0, n),
    `${'x.'.repeat(n / 4)}${keyword}${' '.repeat(n / 4)}`,
    `${keyword}=${'A'.repeat(n - keyword.length - 1)}`,
    `${keyword}${' '.repeat(n - keyword.length)}`,
  ];
}

/**
 * Many rules open with a lazy `[\w.-]{0,50}?` (some with two in a row) that only widens the
 * reported match to the left. An unanchored search finds the same secrets without it, and
 * V8 would otherwise retry every prefix split at every position. Kept for rules whose
 * allowlists inspect the whole match.
 */
function dropLeadingLazyPrefixes(source: string): string {
  const prefix = /^(\(\?:)?\[\\w\.-\]\{0,\d+\}\?/;
  let out = source;
  for (let m = prefix.exec(out); m !== null; m = prefix.exec(out)) {
    out = (m[1] ?? '') + out.slice(m[0].length);
  }
  return out;
}

const PROBE_BUDGET_MS = 20;

function tooSlow(pattern: JsPattern, keywords: string[]): boolean {
  const re = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  for (const kw of keywords.length > 0 ? keywords : ['key']) {
    for (const probe of probes(kw)) {
      const start = performance.now();
      re.lastIndex = 0;
      for (let m = re.exec(probe); m !== null; m = re.exec(probe)) {
        if (m[0] === '') re.lastIndex += 1;
      }
      if (performance.now() - start > PROBE_BUDGET_MS) return true;
    }
  }
  return false;
}

function convertAllowlist(list: TomlAllowlist): SecretAllowlist | null {
  // Allowlists bound to file paths never match text that has no path.
  if (list.paths && list.paths.length > 0) return null;
  const regexes: JsPattern[] = [];
  for (const r of list.regexes ?? []) {
    const conv = re2ToJs(r);
    if (conv.ok) regexes.push(conv.pattern);
  }
  const target = list.regexTarget === 'match' || list.regexTarget === 'line' ? list.regexTarget : 'secret';
  return { target, regexes, stopwords: (list.stopwords ?? []).map((s) => s.toLowerCase()) };
}

const toml = parse(readFileSync(src, 'utf8')) as unknown as {
  allowlist?: TomlAllowlist;
  rules: TomlRule[];
};

const rules: SecretRule[] = [];
const skipped: { id: string; reason: string }[] = [];
for (const rule of toml.rules) {
  if (!rule.regex) {
    skipped.push({ id: rule.id, reason: 'path-only rule' });
    continue;
  }
  const conv = re2ToJs(rule.regex);
  if (!conv.ok) {
    skipped.push({ id: rule.id, reason: conv.reason });
    continue;
  }
  const keywords = (rule.keywords ?? []).map((k) => k.toLowerCase());
  const allowlists = [...(rule.allowlists ?? []), ...(rule.allowlist ? [rule.allowlist] : [])]
    .map(convertAllowlist)
    .filter((a): a is SecretAllowlist => a !== null);
  const pattern = allowlists.some((a) => a.target === 'match')
    ? conv.pattern
    : { ...conv.pattern, source: dropLeadingLazyPrefixes(conv.pattern.source) };
  if (tooSlow(pattern, keywords)) {
    skipped.push({ id: rule.id, reason: `over ${PROBE_BUDGET_MS} ms on a ${MAX_SCAN_WINDOW}-char probe` });
    continue;
  }
  rules.push({
    id: rule.id,
    description: rule.description ?? '',
    pattern,
    keywords,
    ...(rule.entropy !== undefined ? { entropy: rule.entropy } : {}),
    ...(rule.secretGroup !== undefined ? { secretGroup: rule.secretGroup } : {}),
    allowlists,
  });
}

const global = convertAllowlist({ ...toml.allowlist, paths: [] }) ?? {
  target: 'secret',
  regexes: [],
  stopwords: [],
};
const license = readFileSync(join(dirname(src), '..', 'LICENSE'), 'utf8').trim();

const ruleSet: SecretRuleSet = {
  attribution: `Derived from gitleaks (https://github.com/gitleaks/gitleaks), config/gitleaks.toml at commit ${commit}, by scripts/build-secret-rules.ts. Regular expressions translated from RE2 to JavaScript.`,
  license,
  global,
  rules,
  skipped,
};

writeFileSync(out, `${JSON.stringify(ruleSet, null, 1)}\n`);
console.log(`${rules.length} rules written to ${out}; ${skipped.length} skipped:`);
for (const s of skipped) console.log(`  ${s.id}: ${s.reason}`);
