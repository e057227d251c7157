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
  if (external.length === 0) return [];
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
