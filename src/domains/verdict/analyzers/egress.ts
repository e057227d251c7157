import ipaddr from 'ipaddr.js';
import { getDomain } from 'tldts';
import type { Finding } from '../codes.ts';
import sinkData from '../data/exfiltration-sinks.json' with { type: 'json' };
import {
  describeKinds,
  findSensitive,
  isUninspectable,
  MAX_INSPECT_CHARS,
  type SensitiveFinding,
} from './egress/content.ts';
import { encodedNameReason, sinkSign, wildcardDnsReason } from './egress/destination-signs.ts';
import { lookAlikeReason, trustedSkeletons } from './egress/idn.ts';
import { issuerAllows, type SecretPlace } from './egress/issuers.ts';
import { isLoopbackHost, localService } from './egress/local-services.ts';
import { percentDecode } from './paths.ts';

/** Per-account egress policy (DESIGN: `GET/PUT /v1/settings/egress`). */
export interface EgressSettings {
  /** `denylist`: anything not known bad may be reached; `allowlist`: only trusted domains. */
  mode: 'denylist' | 'allowlist';
  /** Registrable domains (or hosts) the account trusts; sub-domains are trusted too. */
  trusted_domains: string[];
  /** Extra domains to refuse on top of the built-in sink list. */
  blocked_domains: string[];
  /**
   * Loopback origins (`http://localhost:3000`) that are the agent's own services, from the
   * account's context settings: an `http.request` may reach them, and what it sends is still
   * judged. Without them a server-side fetch of loopback is refused.
   */
  local_origins?: readonly string[];
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

/**
 * Hides sink domains from the engine until the returned function is called. For the
 * leave-one-source-out evaluation only (scripts/eval-verdict.ts): it measures what the
 * generalising signs catch when the list has never heard of a service.
 */
export function hideSinkDomainsForEvaluation(domains: Iterable<string>): () => void {
  const hidden = new Map<string, string>();
  for (const domain of domains) {
    const category = SINKS.get(domain);
    if (category === undefined) continue;
    hidden.set(domain, category);
    SINKS.delete(domain);
  }
  return () => {
    for (const [domain, category] of hidden) SINKS.set(domain, category);
  };
}

/** Every domain on the sink list (for the evaluation script). */
export function sinkListDomains(): string[] {
  return [...SINKS.keys()];
}

/** The sink-list entry a host falls under (itself or a parent domain), if any. */
export function sinkEntry(host: string): string | undefined {
  let candidate = host;
  for (;;) {
    if (SINKS.has(candidate)) return candidate;
    const dot = candidate.indexOf('.');
    if (dot < 0) return undefined;
    candidate = candidate.slice(dot + 1);
  }
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

// Only these can be IP literals (IPv6 always has a colon; IPv4 in any of its decimal, octal or
// hex forms is digits, dots and x/a-f): other host names skip ipaddr's slower parse.
const IP_CANDIDATE = /:|^[0-9a-fx.]+$/i;

function describeAddress(text: string): string {
  const addr = ipaddr.parse(text);
  if (METADATA_IPS.has(addr.toString())) return 'cloud metadata address';
  const range = addr.range();
  return range === 'unicast' ? 'public IP address' : `${range} address`;
}

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

const trustedSkeletonCache = new WeakMap<readonly string[], Map<string, string>>();

function skeletonsOf(settings: EgressSettings): Map<string, string> {
  let map = trustedSkeletonCache.get(settings.trusted_domains);
  if (map === undefined) {
    map = trustedSkeletons(settings.trusted_domains);
    trustedSkeletonCache.set(settings.trusted_domains, map);
  }
  return map;
}

/** Host names as the resolver sees them: lower-case, without trailing dots. */
function canonicalHost(rawHost: string): string {
  return rawHost.toLowerCase().replace(/\.+$/, '');
}

/** Judges a host name (IDN in punycode or Unicode) against the egress policy. */
/** DNS names are at most 253 characters; a raw host this long cannot canonicalise to one (9 bytes a character, percent-encoded). */
const MAX_HOST_CHARS = 253;
const MAX_RAW_HOST_CHARS = 9 * MAX_HOST_CHARS;

export function analyzeHost(rawHost: string, settings: EgressSettings = DEFAULT_EGRESS_SETTINGS): Finding[] {
  // Checked before any normalisation, whose cost grows with the name: a name no resolver accepts
  // reaches nobody, and an analyzer handed one must not spend seconds on it.
  if (rawHost.length > MAX_RAW_HOST_CHARS)
    return blockHost(`host ${safeHost(rawHost)}`, 'not a host name: too long');
  const host = canonicalHost(rawHost);
  const location = `host ${safeHost(host)}`;
  if (host.length > MAX_HOST_CHARS) return blockHost(location, 'not a host name: longer than 253 characters');
  if (host === '') return blockHost(location, 'empty host');
  const ip = ipFinding(host);
  if (ip !== undefined) return blockHost(location, ip);
  if (INTERNAL_HOSTS.has(host) || INTERNAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) {
    return blockHost(location, 'internal or metadata host');
  }
  if (!host.includes('.')) return blockHost(location, 'single-label (internal) host');
  const wildcard = wildcardDnsReason(host, describeAddress);
  if (wildcard !== undefined) return blockHost(location, wildcard);
  const blocked = matchDomain(host, settings.blocked_domains);
  if (blocked !== undefined) return blockHost(location, `blocked domain ${blocked}`);
  const trusted = matchDomain(host, settings.trusted_domains) !== undefined;
  if (!trusted) {
    const sink = sinkCategory(host);
    if (sink !== undefined) return blockHost(location, `known exfiltration sink (${sink})`);
    const lookAlike = lookAlikeReason(host, { trusted: skeletonsOf(settings) });
    if (lookAlike !== undefined) return blockHost(location, lookAlike);
    const encoded = encodedNameReason(host);
    if (encoded !== undefined) return blockHost(location, encoded);
  }
  if (settings.mode === 'allowlist' && !trusted) {
    return blockHost(location, 'not in the trusted domains (allowlist mode)');
  }
  return [];
}

const HTTP_SCHEMES = new Set(['http:', 'https:']);

/** What the caller knows about the request beyond its URL. */
export interface UrlUse {
  /** The request carries data: a body, an upload, or a value only known at run time. */
  sendsData?: boolean;
}

function parseUrl(rawUrl: string): URL | undefined {
  try {
    return new URL(rawUrl.trim());
  } catch {
    return undefined;
  }
}

const MAX_QUERY_VALUES = 64;

function queryValues(url: URL, skipAwsSignature = false): string[] {
  const values: string[] = [];
  for (const [name, value] of url.searchParams) {
    if (values.length >= MAX_QUERY_VALUES) break;
    if (skipAwsSignature && /^x-amz-/i.test(name)) continue;
    values.push(value);
  }
  return values;
}

function destinationFindings(url: URL, settings: EgressSettings, use: UrlUse): Finding[] {
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
  const hostFindings = analyzeHost(url.hostname, settings);
  if (hostFindings.length > 0) return hostFindings;
  const host = canonicalHost(url.hostname);
  // DNS over HTTPS (`/resolve?name=…`, `/dns-query?name=…`): the name asked about is a DNS name
  // that leaves, judged like one looked up directly (encoded labels carry data out).
  const asked = url.search === '' ? null : url.searchParams.get('name');
  if (asked !== null && /\/(?:resolve|dns-query|dns-json)\b/.test(url.pathname)) {
    const encoded = encodedNameReason(asked.replace(/\.$/, '').toLowerCase());
    if (encoded !== undefined)
      return blockHost(`host ${safeHost(host)}`, `DNS-over-HTTPS lookup: ${encoded}`);
  }
  if (isTrustedHost(host, settings)) return [];
  const sign = sinkSign({
    host,
    path: percentDecode(url.pathname),
    queryValues: url.search === '' ? [] : queryValues(url),
    sendsData: use.sendsData === true,
  });
  return sign === undefined ? [] : blockHost(`host ${safeHost(host)}`, sign.reason);
}

/** Judges a URL an agent wants to reach. */
export function analyzeUrl(
  rawUrl: string,
  settings: EgressSettings = DEFAULT_EGRESS_SETTINGS,
  use: UrlUse = {},
): Finding[] {
  const url = parseUrl(rawUrl);
  if (url === undefined) {
    return [
      { code: 'EXFILTRATION_BLOCKED', message: 'URL cannot be parsed, destination unknown', location: 'url' },
    ];
  }
  return destinationFindings(url, settings, use);
}

/** The parts of an `http.request` payload egress judges. */
export interface HttpRequestParts {
  url: string;
  method?: string | undefined;
  headers?: Record<string, string> | undefined;
  body?: unknown;
}

const DATA_METHODS = new Set(['POST', 'PUT', 'PATCH']);

function bodyText(body: unknown): string {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  return JSON.stringify(body) ?? '';
}

/** Headers whose value is a credential presented to the server itself. */
const CREDENTIAL_HEADERS =
  /^(?:authorization|proxy-authorization|x-api-key|api-key|apikey|x-auth-token|private-token|x-goog-api-key|x-amz-security-token|x-amz-credential|x-amz-content-sha256|x-amz-date|cookie|x-csrf-token|x-xsrf-token)$/;

/** Only secrets that name their issuer count in a credential header: an unknown token there is ordinary use. */
function issued(findings: readonly SensitiveFinding[]): SensitiveFinding[] {
  return findings.filter(
    (f) => f.ruleId !== undefined && f.ruleId !== 'generic-api-key' && !f.ruleId.startsWith('jwt'),
  );
}

/** Adds a finding for what `found` holds, less what the host may receive as its issuer. */
function reportContent(
  out: Finding[],
  host: string,
  place: SecretPlace,
  location: string,
  found: SensitiveFinding[],
): void {
  if (found.length === 0) return;
  const kept = found.filter((f) => !issuerAllows(f, host, place));
  if (kept.length === 0) return;
  out.push({
    code: 'EXFILTRATION_BLOCKED',
    message: `${describeKinds(kept)} would leave for ${safeHost(registrableDomain(host))}, which the account does not trust`,
    location,
  });
}

/**
 * Sensitive data carried to a host the account does not trust. A secret sent to its own
 * issuer in the place that issuer reads it (see egress/issuers.ts) is ordinary use.
 */
export function contentFindings(
  host: string,
  parts: { url?: URL | undefined; headers?: Record<string, string> | undefined; body?: string | undefined },
): Finding[] {
  const out: Finding[] = [];
  const { url, headers, body } = parts;
  if (url !== undefined && (url.search.length > 1 || url.pathname.length > 24)) {
    // A presigned S3 URL carries its own signature; AWS reads it there.
    const presigned = host === 'amazonaws.com' || host.endsWith('.amazonaws.com');
    const values = url.search === '' ? [] : queryValues(url, presigned);
    const search = presigned ? '' : url.search.slice(1, MAX_INSPECT_CHARS);
    const path = percentDecode(url.pathname);
    // Each segment without its extension too: `/a/<base64 of a key>.png` hides the key's encoding.
    const segments =
      path.length > 24 ? `\n${path.replace(/\.[A-Za-z0-9]{1,5}(?=\/|$)/g, '').replace(/\//g, '\n')}` : '';
    const text = `${path}${segments}\n${search}\n${values.join('\n')}\n${values.join('')}`;
    reportContent(out, host, 'url', 'url', findSensitive(text));
  }
  if (headers !== undefined) {
    for (const [name, value] of Object.entries(headers)) {
      if (typeof value !== 'string' || value.length < 8) continue;
      const lower = name.toLowerCase();
      const found = findSensitive(value);
      if (CREDENTIAL_HEADERS.test(lower))
        reportContent(
          out,
          host,
          lower.startsWith('x-amz') ? 'aws-header' : 'authorization',
          `header ${lower.slice(0, 40)}`,
          issued(found),
        );
      else reportContent(out, host, 'header', `header ${lower.slice(0, 40)}`, found);
    }
  }
  if (body !== undefined && body !== '') {
    if (isUninspectable(body)) {
      out.push({
        code: 'EXFILTRATION_BLOCKED',
        message: `body larger than the ${MAX_INSPECT_CHARS / 1024 / 1024} MiB inspection budget, going to ${safeHost(registrableDomain(host))}, which the account does not trust`,
        location: 'field body',
      });
    } else {
      reportContent(out, host, 'body', 'field body', findSensitive(body));
    }
  }
  return out;
}

/** Judges an `http.request`: its destination, and what it carries there. */
export function analyzeHttpRequest(
  request: HttpRequestParts,
  settings: EgressSettings = DEFAULT_EGRESS_SETTINGS,
): Finding[] {
  const url = parseUrl(request.url);
  if (url === undefined) return analyzeUrl(request.url, settings);
  const body = bodyText(request.body);
  const sendsData = body !== '' || DATA_METHODS.has((request.method ?? 'GET').toUpperCase());
  if (!namedLocalOrigin(url, settings)) {
    const destination = destinationFindings(url, settings, { sendsData });
    if (destination.length > 0) {
      if (!isLoopbackHost(url.hostname)) return destination;
      // A server-side fetch of loopback reaches the server's own services (SSRF) unless named.
      return destination.map((f) => ({
        ...f,
        message: `${f.message}; a fetch from the server refuses loopback unless the account names the origin (PUT /v1/settings/context {"local_origins": ["${url.origin.slice(0, 80)}"]})`,
      }));
    }
  }
  const host = canonicalHost(url.hostname);
  if (isTrustedHost(host, settings)) return [];
  return contentFindings(host, { url, headers: request.headers, body });
}

/** True when the URL is on one of the account's named local origins, and that origin is local. */
function namedLocalOrigin(url: URL, settings: EgressSettings): boolean {
  const origins = settings.local_origins;
  if (origins === undefined || origins.length === 0 || !origins.includes(url.origin)) return false;
  const scheme = url.protocol.slice(0, -1);
  const port = url.port === '' ? (scheme === 'https' ? 443 : 80) : Number(url.port);
  return localService(url.hostname, port, { path: url.pathname, scheme, origins })?.own === true;
}

/** True when an e-mail address or host belongs to a trusted domain of the account. */
export function isTrustedHost(host: string, settings: EgressSettings): boolean {
  return (
    settings.trusted_domains.length > 0 &&
    matchDomain(canonicalHost(host), settings.trusted_domains) !== undefined
  );
}

/** Registrable domain of a host, for messages and grouping; the host itself when unknown. */
export function registrableDomain(host: string): string {
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}
