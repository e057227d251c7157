import { describe, expect, it } from 'vitest';
import shippedRules from '../../../shared/secrets/secret-rules.json' with { type: 'json' };
import type { SecretRuleSet } from '../../../shared/secrets/secret-rules.ts';
import { ibanValid, luhnValid, ssnValid } from './checksums.ts';
import { detectPii, type PiiType, scrub } from './scrubber.ts';

const typesIn = (text: string): PiiType[] => detectPii(text).map((s) => s.type);

describe('scrub: values that must be replaced', () => {
  const cases: [string, string, PiiType][] = [
    ['email', 'Write to Jane.Doe+news@mail.example.co.uk today', 'EMAIL'],
    ['US phone', "They're not answering at 780-999-2181", 'PHONE'],
    ['international phone', 'Desk: +41 (0)71 526 99 04', 'PHONE'],
    ['UK mobile', 'call me on +447700 921 916 tomorrow', 'PHONE'],
    ['local number with phone label', 'Phone: 451 5986', 'PHONE'],
    ['number labelled after', '085 175 7641-Office', 'PHONE'],
    ['extension', 'Fax: 345-899-3560x4587', 'PHONE'],
    ['Visa', 'card 4111 1111 1111 1111 expires soon', 'CARD'],
    ['Amex', 'paid with 378282246310005', 'CARD'],
    ['UATP', 'my credit card: 122000000000003', 'CARD'],
    ['punycode domain', 'mail a@xn--d1acufc.xn--p1ai now', 'EMAIL'],
    ['foreign number said to be mine', 'My Israeli number is 09-7625400', 'PHONE'],
    ['IBAN grouped', 'IBAN DE89 3704 0044 0532 0130 00 please', 'IBAN'],
    ['IBAN lower case', 'send to gb82west12345698765432 now', 'IBAN'],
    ['SSN dashed', 'His social security number is 460-89-9847', 'SSN'],
    ['SSN bare with context', 'SSN: 460899847', 'SSN'],
    ['IPv4', 'the server at 192.168.10.23 is down', 'IP'],
    ['IPv6', 'reach 2001:db8:85a3::8a2e:370:7334 over v6', 'IP'],
    ['IPv6 loopback', 'bound to ::1 only', 'IP'],
    ['GitHub token', 'token ghp_R8x2LmQ9vT4kZp7wN3yB6cJ1hF5dG0sA2eUi', 'SECRET'],
    ['AWS key id', 'aws_access_key_id = AKIA2E3A4F5B6HJK7QWE', 'SECRET'],
    ['generic password assignment', 'db_password = "Xk9mQ2vL7pR4tZw8"', 'SECRET'],
    ['random token', 'use Zq8Lm2Xv9Tk4Rp7Wn3Yb6Cj1Hf5Dg0 as the bearer', 'SECRET'],
    [
      'private key block',
      '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7x9Lm2Qv8Tk4Zp7wN3yB6cJ1hF5dG0sA2eUiR8x2LmQ9vT4kZp7wN3yB6cJ1hF5dG0\n-----END RSA PRIVATE KEY-----',
      'SECRET',
    ],
  ];
  it.each(cases)('%s', (_name, text, type) => {
    const result = scrub(text);
    expect(result.found[type]).toBe(1);
    expect(result.text).toContain(`<${type}>`);
    const others = Object.entries(result.found).filter(([t, n]) => t !== type && n > 0);
    expect(others).toEqual([]);
  });
});

describe('scrub: look-alikes that must stay', () => {
  const negatives: [string, string][] = [
    ['year', 'The company was founded in 2019 and grew in 2023.'],
    ['amounts', 'Revenue was $1,234,567.89, up from €987.654,32 and 1 250 000 units.'],
    ['order number', 'Your order #12345678901 shipped; invoice no. 4111111111111111.'],
    ['order number words', 'order number 5551234567 was refunded'],
    ['order number is', 'Your order number is 5551234567.'],
    ['ISO date', 'Due on 2024-03-15, moved to 15/03/2024 and 03.15.2024.'],
    ['date time', 'Logged at 2024-03-15 12:13:52 UTC.'],
    ['semver', 'Upgrade to version 1.2.3 or v10.4.1-beta.2.'],
    ['four-part version', 'Built with version 4.2.0.1 of the toolkit.'],
    ['clock time', 'The meeting is at 12:30:45 sharp.'],
    ['percent and ratio', 'Accuracy 98.6% on 10,000 of 12,345 items (1:1000).'],
    ['bare nine digits', 'Account 123456789 is closed.'],
    ['luhn-invalid sixteen digits', 'Reference 1234 5678 9012 3456 is on file.'],
    ['git sha', 'Fixed in commit 3f2a9c1e7b4d5a6f8e9d0c1b2a3f4e5d6c7b8a9f.'],
    ['uuid', 'Claim 0b7e6a8c-3f1d-4e2a-9c5b-7d8e9f0a1b2c was stored.'],
    ['MAC-like and C++ scope', 'std::vector uses 00:1A:2B:3C:4D:5E here.'],
    ['long identifier', 'Call getUserAccountSettingsForTenant with AbstractSingletonProxyFactoryBean.'],
    ['word with key', 'The key idea is that the api version is stable.'],
    ['quantities', 'We shipped 4,000 boxes weighing 12.5 kg over 350 km in 2 days.'],
    ['phone-ish price list', 'Prices: 19.99, 24.99, 129.00 and 1999.'],
    ['percent IBAN-like', 'Model XK20 1234 is a part code.'],
  ];
  it.each(negatives)('%s', (_name, text) => {
    const result = scrub(text);
    expect(result.text).toBe(text);
  });
});

describe('scrub output', () => {
  it('replaces every value with its placeholder and counts by type', () => {
    const text = 'Mail a@b.io or c@d.io, call +1 415-555-2671, from 10.0.0.1.';
    const result = scrub(text);
    expect(result.text).toBe('Mail <EMAIL> or <EMAIL>, call <PHONE>, from <IP>.');
    expect(result.found).toMatchObject({ EMAIL: 2, PHONE: 1, IP: 1, CARD: 0 });
  });

  it('reports spans with offsets into the original text', () => {
    const text = 'ip 10.1.2.3 end';
    const [span] = detectPii(text);
    expect(span).toBeDefined();
    expect(text.slice(span!.start, span!.end)).toBe('10.1.2.3');
  });

  it('leaves text without personal data untouched', () => {
    expect(scrub('')).toMatchObject({ text: '' });
    expect(typesIn('The sky is blue.')).toEqual([]);
  });
});

describe('scrub performance', () => {
  it('stays linear on adversarial megabyte inputs', () => {
    const inputs = [
      `${'a'.repeat(60)}@`.repeat(17_000),
      '1234567890 '.repeat(95_000),
      'api_key= token: secret '.repeat(45_000),
      'A1b2C3d4E5'.repeat(100_000),
      `${'1.'.repeat(500_000)}`,
      `${'a:'.repeat(500_000)}`,
      // Every secret rule's keyword, each followed by a long value: all rules run on many windows.
      [...new Set((shippedRules as SecretRuleSet).rules.flatMap((r) => r.keywords))]
        .map((k) => `${k}=${'A'.repeat(200)} `)
        .join('')
        .repeat(8),
    ];
    for (const input of inputs) {
      const start = performance.now();
      scrub(input);
      // Generous for a shared CI core; a quadratic path takes minutes on these inputs.
      expect(performance.now() - start).toBeLessThan(3000);
    }
  });
});

describe('phone numbers in digit-heavy text', () => {
  it('reads a few dozen candidates with libphonenumber, and still scrubs the numbers after them', () => {
    // 10,000 characters of two-digit groups held a store 137 ms in the matcher.
    const noise = '12 '.repeat(3334);
    const start = performance.now();
    const { text, found } = scrub(`${noise} call +44 20 7946 0958 or 020 7946 0958`);
    expect(performance.now() - start).toBeLessThan(2000);
    expect(text).not.toContain('7946 0958');
    expect(found.PHONE).toBeGreaterThanOrEqual(2);
  });
});

describe('checksums', () => {
  it.each([
    ['4111111111111111', true],
    ['4111111111111112', false],
    ['79927398713', true],
  ])('luhn %s', (digits, ok) => expect(luhnValid(digits)).toBe(ok));

  it.each([
    ['GB82WEST12345698765432', true],
    ['GB82WEST12345698765433', false],
    ['DE89370400440532013000', true],
    ['DE8937040044053201300', false],
    ['XX82WEST12345698765432', false],
  ])('iban %s', (iban, ok) => expect(ibanValid(iban)).toBe(ok));

  it.each([
    ['460', '89', '9847', true],
    ['000', '12', '3456', false],
    ['666', '12', '3456', false],
    ['912', '12', '3456', false],
    ['123', '00', '3456', false],
    ['123', '45', '0000', false],
    ['078', '05', '1120', false],
  ])('ssn %s-%s-%s', (a, g, s, ok) => expect(ssnValid(a, g, s)).toBe(ok));
});
