import { domainToUnicode } from 'node:url';
import ipaddr from 'ipaddr.js';
import { getDomain } from 'tldts';
import type { Finding } from '../codes.ts';
import sinkData from '../data/exfiltration-sinks.json' with { type: 'json' };

/** Per-account egress policy (DESIGN: `GET/PUT /v1/settings/egress`). */
export interface EgressSettings {
  /** `denylist`: anything not known bad may be reached; `allowlist`: only trusted domains. */
  mode: 'denylist' | 'allowlist';
  /** Registrable domains (or hosts) the account trusts; sub-domains are trusted too. */
  trusted_domains: string[];
  /** Extra domains to refuse on top of the built-in sink list. */
  blocked_domains: string[];
}

export const DEFAULT_EGRESS_SETTINGS: EgressSettings = Object.freeze({
  mode: 'denylist',
  trusted_domains: [],
  blocked_domains: [],
}) as EgressSettings;

const SINKS = new Map<string, string>(
  (sinkData as { domains: { domain: string; category: string }[] }).domains.map((entry) => [
    entry.domain,
    entry.category,
  ]),
);

/** Host names that resolve to instance metadata or the local machine on common platforms. */
const INTERNAL_HOSTS = new Set([
  'localhost',
  'metadata',
  'metadata.google.internal',
  'metadata.azure.internal',
  'instance-data',
  'instance-data.ec2.internal',
  'kubernetes.default',
  'kubernetes.default.svc',
]);
const INTERNAL_SUFFIXES = [
  '.localhost',
  '.internal',
  '.local',
  '.localdomain',
  '.cluster.local',
  '.svc',
  '.onion',
];
const METADATA_IPS = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);

/** Returns the first matching suffix entry: the host itself or one of its parent domains. */
function matchDomain(host: string, domains: Iterable<string>): string | undefined {
  for (const domain of domains) {
    const d = domain.toLowerCase().replace(/^\*?\./, '');
    if (host === d || host.endsWith(`.${d}`)) return d;
  }
  return undefined;
}

function sinkCategory(host: string): string | undefined {
  let candidate = host;
  for (;;) {
    const category = SINKS.get(candidate);
    if (category !== undefined) return category;
    const dot = candidate.indexOf('.');
    if (dot < 0) return undefined;
    candidate = candidate.slice(dot + 1);
  }
}

// Letters from other scripts that render like Latin ones: the usual homograph material.
const CONFUSABLES: Record<string, string> = {
  а: 'a',
  в: 'b',
  с: 'c',
  ԁ: 'd',
  е: 'e',
  ё: 'e',
  һ: 'h',
  і: 'i',
  ї: 'i',
  ј: 'j',
  к: 'k',
  ӏ: 'l',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  ԛ: 'q',
  ѕ: 's',
  т: 't',
  у: 'y',
  х: 'x',
  ԝ: 'w',
  α: 'a',
  ο: 'o',
  ρ: 'p',
  ν: 'v',
  τ: 't',
  ι: 'i',
  κ: 'k',
  υ: 'u',
  ɑ: 'a',
  ı: 'i',
  ℓ: 'l',
};

/** Latin-looking skeleton of a Unicode host, or undefined when it has no confusable letter. */
function confusableSkeleton(unicodeHost: string): string | undefined {
  let changed = false;
  let out = '';
  for (const ch of unicodeHost) {
    const mapped = CONFUSABLES[ch];
    if (mapped !== undefined) {
      changed = true;
      out += mapped;
    } else {
      out += ch;
    }
  }
  return changed ? out : undefined;
}

function isLookAlike(host: string, settings: EgressSettings): string | undefined {
  if (!host.split('.').some((label) => label.startsWith('xn--'))) return undefined;
  const unicode = domainToUnicode(host);
  const skeleton = confusableSkeleton(unicode);
  if (skeleton === undefined) return undefined;
  const trusted = matchDomain(skeleton, settings.trusted_domains);
  if (trusted !== undefined) return `look-alike of trusted domain ${trusted}`;
  // A host whose look-alike letters turn it into plain ASCII exists only to be mistaken for that ASCII name.
  if (/^[\x21-\x7e]+$/.test(skeleton)) return `look-alike (punycode) of ${registrableDomain(skeleton)}`;
  return undefined;
}

// Only these can be IP literals (IPv6 always has a colon; IPv4 in any of its decimal, octal or
// hex forms is digits, dots and x/a-f): other host names skip ipaddr's slower parse.
const IP_CANDIDATE = /:|^[0-9a-fx.]+$/i;

function ipFinding(literal: string): string | undefined {
  const bare = literal.replace(/^\[|\]$/g, '');
  if (!IP_CANDIDATE.test(bare) || !ipaddr.isValid(bare)) return undefined;
  let addr = ipaddr.parse(bare);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  }
  const text = addr.toString();
  if (METADATA_IPS.has(text)) return 'cloud metadata address';
  const range = addr.range();
  if (range === 'unicast') return 'raw public IP address';
  return `${range} address`;
}

function safeHost(host: string): string {
  return host.length > 80 ? `${host.slice(0, 77)}...` : host;
}

function blockHost(location: string, reason: string): Finding[] {
  return [{ code: 'EXFILTRATION_BLOCKED', message: `destination is not allowed: ${reason}`, location }];
}

/** Judges a host name (already lower-case, IDN in punycode) against the egress policy. */
export function analyzeHost(rawHost: string, settings: EgressSettings = DEFAULT_EGRESS_SETTINGS): Finding[] {
  const host = rawHost.toLowerCase().replace(/\.$/, '');
  const location = `host ${safeHost(host)}`;
  if (host === '') return blockHost(location, 'empty host');
  const ip = ipFinding(host);
  if (ip !== undefined) return blockHost(location, ip);
  if (INTERNAL_HOSTS.has(host) || INTERNAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) {
    return blockHost(location, 'internal or metadata host');
  }
  if (!host.includes('.')) return blockHost(location, 'single-label (internal) host');
  const blocked = matchDomain(host, settings.blocked_domains);
  if (blocked !== undefined) return blockHost(location, `blocked domain ${blocked}`);
  const sink = sinkCategory(host);
  if (sink !== undefined) return blockHost(location, `known exfiltration sink (${sink})`);
  const lookAlike = isLookAlike(host, settings);
  if (lookAlike !== undefined) return blockHost(location, lookAlike);
  if (settings.mode === 'allowlist' && matchDomain(host, settings.trusted_domains) === undefined) {
    return blockHost(location, 'not in the trusted domains (allowlist mode)');
  }
  return [];
}

const HTTP_SCHEMES = new Set(['http:', 'https:']);

/** Judges a URL an agent wants to reach. */
export function analyzeUrl(rawUrl: string, settings: EgressSettings = DEFAULT_EGRESS_SETTINGS): Finding[] {
  let url: URL;
  try {
    url = new URL(rawUrl.trim());
  } catch {
    return [
      { code: 'EXFILTRATION_BLOCKED', message: 'URL cannot be parsed, destination unknown', location: 'url' },
    ];
  }
  if (!HTTP_SCHEMES.has(url.protocol)) {
    return [
      {
        code: 'EXFILTRATION_BLOCKED',
        message: `non-HTTP scheme ${url.protocol.slice(0, 20)} is not allowed`,
        location: `url scheme ${url.protocol.slice(0, 20)}`,
      },
    ];
  }
  if (url.username !== '' || url.password !== '') {
    return [
      {
        code: 'EXFILTRATION_BLOCKED',
        message: 'credentials embedded in the URL',
        location: `host ${safeHost(url.hostname)}`,
      },
    ];
  }
  return analyzeHost(url.hostname, settings);
}

/** True when an e-mail address or host belongs to a trusted domain of the account. */
export function isTrustedHost(host: string, settings: EgressSettings): boolean {
  return matchDomain(host.toLowerCase(), settings.trusted_domains) !== undefined;
}

/** Registrable domain of a host, for messages and grouping; the host itself when unknown. */
export function registrableDomain(host: string): string {
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}
