import type { Finding } from '../codes.ts';
import { describeKinds, findSensitive, isUninspectable, MAX_INSPECT_CHARS } from './egress/content.ts';
import { DEFAULT_EGRESS_SETTINGS, type EgressSettings, isTrustedHost } from './egress.ts';

/** Kinds of secrets and personal data found in a text; values are never returned. */
export function sensitiveKinds(text: string): string[] {
  return [...new Set(findSensitive(text).map((f) => f.kind))];
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

/** Kinds of personal data: shown to the person they concern, they are not a secret leaking. */
const PERSONAL = /^(?:bulk personal records|US social security number|payment card number)/;

/**
 * Text that shows where a secret is, or what one looks like, without being one: documentation's
 * example keys (`…EXAMPLE`), masks (`XXXXXXXX`, `****`, `<your-token>`, `sk_live_...`), and code
 * that reads the secret from the environment (`os.environ["KEY"]`, `process.env.KEY`).
 */
const PLACEHOLDER =
  /\S*(?:EXAMPLE|[Xx*]{6,}|0{10,}|\.{3}|…)\S*|<[^<>\n]{1,64}>|\bos\.(?:environ(?:\.get)?|getenv)\s*[[(][^\])\n]{1,128}[\])]|\bprocess\.env(?:\.\w+|\[[^\]\n]{1,128}\])|\bENV\[[^\]\n]{1,128}\]|\$\{\{?\s*[\w.]+\s*\}?\}/g;

function withoutPlaceholders(text: string): string {
  return text.replace(PLACEHOLDER, ' ');
}

/**
 * Secrets (keys, tokens, credentials, `.env` contents) in a text a person will read: the agent's
 * answer, a message. Personal data is left to the egress rules, which know where it goes.
 */
export function secretsIn(text: string, what: string, location: string): Finding[] {
  const found = findSensitive(withoutPlaceholders(text)).filter((f) => !PERSONAL.test(f.kind));
  if (found.length === 0) return [];
  return [
    {
      code: 'EXFILTRATION_BLOCKED',
      message: `${what} shows ${describeKinds(found)}; a secret is not repeated in text, refer to where it is kept instead`,
      location,
    },
  ];
}

/**
 * email.send: secrets, credentials, `.env` dumps or bulk personal records (also base64, hex or
 * percent-encoded) leaving for recipients outside the trusted domains. Same detectors and
 * budgets as http.request (egress/content.ts).
 */
export function analyzeEmail(
  to: string | string[],
  subject: string,
  body: string,
  egress: EgressSettings = DEFAULT_EGRESS_SETTINGS,
): Finding[] {
  const recipients = Array.isArray(to) ? to : to.split(/[,;]/);
  const external = recipients.filter((r) => !isTrustedHost(recipientDomain(r), egress));
  // Keys and credentials are not mailed to anyone, colleagues included: mail is copied and kept.
  if (external.length === 0) return secretsIn(`${subject}\n${body}`, 'the message', 'field body');
  const domains = [...new Set(external.map(recipientDomain))].slice(0, 3).join(', ');
  const text = `${subject}\n${body}`;
  if (isUninspectable(text)) {
    return [
      {
        code: 'EXFILTRATION_BLOCKED',
        message: `message larger than the ${MAX_INSPECT_CHARS / 1024 / 1024} MiB inspection budget goes to recipients outside the trusted domains (${domains})`,
        location: 'field body',
      },
    ];
  }
  const found = findSensitive(text);
  if (found.length === 0) return [];
  return [
    {
      code: 'EXFILTRATION_BLOCKED',
      message: `message contains ${describeKinds(found)} and goes to recipients outside the trusted domains (${domains})`,
      location: 'field body',
    },
  ];
}
