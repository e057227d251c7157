import type { Finding } from '../codes.ts';
import { DEFAULT_EGRESS_SETTINGS, type EgressSettings, isTrustedHost } from './egress.ts';

interface Detector {
  kind: string;
  pattern: RegExp;
  valid?: (match: string) => boolean;
}

function luhn(digits: string): boolean {
  const d = digits.replace(/\D/g, '');
  if (d.length < 13 || d.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < d.length; i++) {
    let n = d.charCodeAt(d.length - 1 - i) - 48;
    if (i % 2 === 1) {
      n *= 2;
      if (n > 9) n -= 9;
    }
    sum += n;
  }
  return sum % 10 === 0;
}

// Bounded quantifiers only: every pattern runs in linear time on megabyte bodies.
const DETECTORS: readonly Detector[] = [
  { kind: 'private key', pattern: /-----BEGIN [A-Z ]{0,30}PRIVATE KEY-----/ },
  { kind: 'AWS access key', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { kind: 'GitHub token', pattern: /\bgh[pousr]_[A-Za-z0-9]{36,255}\b/ },
  { kind: 'Slack token', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,200}\b/ },
  {
    kind: 'API key',
    pattern: /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,200}\b|\bsk-[A-Za-z0-9_-]{20,200}\b/,
  },
  { kind: 'API key', pattern: /\barbiter_sk_[A-Za-z0-9]{32,200}\b/ },
  {
    kind: 'JSON web token',
    pattern: /\beyJ[A-Za-z0-9_-]{8,2000}\.eyJ[A-Za-z0-9_-]{8,4000}\.[A-Za-z0-9_-]{8,2000}/,
  },
  {
    kind: 'credential',
    pattern:
      /\b(?:password|passwd|api[_-]?key|secret|access[_-]?token|auth[_-]?token)\s{0,3}[:=]\s{0,3}\S{8,200}/i,
  },
  { kind: 'payment card number', pattern: /\b\d(?:[ -]?\d){12,18}\b/, valid: luhn },
  { kind: 'US social security number', pattern: /\b\d{3}-\d{2}-\d{4}\b/ },
  { kind: 'e-mail address', pattern: /\b[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,24}\b/ },
];

/** Kinds of secrets and personal data found in a text; values are never returned. */
export function sensitiveKinds(text: string): string[] {
  const kinds = new Set<string>();
  for (const detector of DETECTORS) {
    const global = new RegExp(detector.pattern.source, `${detector.pattern.flags}g`);
    for (const match of text.matchAll(global)) {
      if (detector.valid === undefined || detector.valid(match[0])) {
        kinds.add(detector.kind);
        break;
      }
    }
  }
  return [...kinds];
}

function recipientDomain(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0
    ? ''
    : address
        .slice(at + 1)
        .trim()
        .replace(/>$/, '')
        .toLowerCase();
}

/** email.send: secrets or personal data leaving for recipients outside the trusted domains. */
export function analyzeEmail(
  to: string | string[],
  subject: string,
  body: string,
  egress: EgressSettings = DEFAULT_EGRESS_SETTINGS,
): Finding[] {
  const recipients = Array.isArray(to) ? to : to.split(/[,;]/);
  const external = recipients.filter((r) => !isTrustedHost(recipientDomain(r), egress));
  if (external.length === 0) return [];
  const kinds = sensitiveKinds(`${subject}\n${body}`);
  if (kinds.length === 0) return [];
  const domains = [...new Set(external.map(recipientDomain))].slice(0, 3).join(', ');
  return [
    {
      code: 'EXFILTRATION_BLOCKED',
      message: `message contains ${kinds.join(', ')} and goes to recipients outside the trusted domains (${domains})`,
      location: 'field body',
    },
  ];
}
