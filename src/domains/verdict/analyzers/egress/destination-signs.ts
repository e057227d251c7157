import ipaddr from 'ipaddr.js';
import { getDomain, getDomainWithoutSuffix } from 'tldts';
import { shannonEntropy } from '../../../../shared/secrets/secret-rules.ts';
import wellKnown from '../../data/well-known-domains.json' with { type: 'json' };

/**
 * Signs that a destination is a tunnel, request catcher, paste site or file drop, read from
 * the host and the request itself rather than from the sink list, so services the list has
 * never seen are caught too. See the verdict README ("Paths and egress") for the weights.
 */

const PLATFORMS = new Set<string>([...wellKnown.platforms, ...wellKnown.brands]);

/** Wildcard-DNS services: `<address>.nip.io` resolves to `<address>`. */
const ADDRESS_DNS = [
  'nip.io',
  'sslip.io',
  'xip.io',
  'traefik.me',
  'nip.direct',
  'backname.io',
  'ip.addr.tools',
];
/** Names that resolve to the loopback address whatever the sub-domain. */
const LOOPBACK_DNS = [
  'localtest.me',
  'lvh.me',
  'vcap.me',
  'lacolhost.com',
  'localhost.direct',
  'fbi.com',
  '127-0-0-1.org',
];

function suffixOf(host: string, suffixes: readonly string[]): string | undefined {
  for (const s of suffixes) {
    // `host === s` or `host` ends with `.s`, without building the string per suffix.
    if (host.endsWith(s) && (host.length === s.length || host.charCodeAt(host.length - s.length - 1) === 46))
      return s;
  }
  return undefined;
}

function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (!ipaddr.isValid(text)) return undefined;
  const addr = ipaddr.parse(text);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (addr as ipaddr.IPv6).toIPv4Address();
  }
  return addr;
}

/** The address a name embeds, in the dotted, dashed or hex forms wildcard-DNS services read. */
export function embeddedAddress(prefix: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const dotted = /(?:^|\.)(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(prefix);
  if (dotted && ipaddr.IPv4.isValidFourPartDecimal(dotted[1]!)) return parseAddress(dotted[1]!);
  const last = prefix.slice(prefix.lastIndexOf('.') + 1);
  const dashed = /(?:^|-)(\d{1,3}-\d{1,3}-\d{1,3}-\d{1,3})$/.exec(last);
  if (dashed) {
    const text = dashed[1]!.replaceAll('-', '.');
    if (ipaddr.IPv4.isValidFourPartDecimal(text)) return parseAddress(text);
  }
  const hex = /(?:^|-)([0-9a-f]{8})$/.exec(last);
  if (hex) {
    const n = Number.parseInt(hex[1]!, 16);
    return ipaddr.parse([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.'));
  }
  if (last.includes('--') || (last.match(/-/g)?.length ?? 0) >= 2) {
    const v6 = parseAddress(last.replaceAll('-', ':'));
    if (v6) return v6;
  }
  return undefined;
}

/** Why a host that writes an address into its name is not allowed, or undefined. */
export function wildcardDnsReason(
  host: string,
  describeAddress: (text: string) => string,
): string | undefined {
  const loopback = suffixOf(host, LOOPBACK_DNS);
  if (loopback !== undefined) return `wildcard DNS ${loopback} resolves to the loopback address`;
  const service = suffixOf(host, ADDRESS_DNS);
  if (service !== undefined) {
    const prefix = host === service ? '' : host.slice(0, -service.length - 1);
    const addr = embeddedAddress(prefix);
    if (addr === undefined) return `wildcard DNS service ${service}`;
    return `wildcard DNS ${service} names a ${describeAddress(addr.toString())}`;
  }
  // Any other name that starts with a private, loopback or metadata address: a wildcard DNS
  // service the list does not know yet. Public addresses (`ec2-3-4-5-6.compute…`) are left alone.
  // Every such address, in any of its written forms, has a digit.
  if (!/\d/.test(host)) return undefined;
  const first = host.split('.', 1)[0]!;
  const embedded = embeddedAddress(host.includes('.') ? host.split('.').slice(0, 4).join('.') : first);
  if (embedded !== undefined && embedded.range() !== 'unicast') {
    return `name embeds a ${describeAddress(embedded.toString())}`;
  }
  // DNS-rebinding services write the address anywhere in the name (`…-169.254.169.254-rr.1u.ms`)
  // or as hex labels (`7f000001.a9fea9fe.rbndr.us`).
  const inside = embeddedAnywhere(host);
  return inside === undefined ? undefined : `name embeds a ${describeAddress(inside.toString())}`;
}

const QUAD_ANYWHERE = /(?<![\d.])(\d{1,3})[.-](\d{1,3})[.-](\d{1,3})[.-](\d{1,3})(?![\d])/g;

function embeddedAnywhere(host: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  for (const m of host.matchAll(QUAD_ANYWHERE)) {
    const text = `${m[1]}.${m[2]}.${m[3]}.${m[4]}`;
    if (!ipaddr.IPv4.isValidFourPartDecimal(text)) continue;
    const addr = ipaddr.parse(text);
    if (addr.range() !== 'unicast') return addr;
  }
  // Hex labels: only loopback, link-local (metadata) and unspecified addresses, as a random hex
  // label falls in a private range too often to mean one.
  for (const label of host.split('.')) {
    if (!/^[0-9a-f]{8}$/.test(label)) continue;
    const n = Number.parseInt(label, 16);
    const addr = ipaddr.parse([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.'));
    if (['loopback', 'linkLocal', 'unspecified'].includes(addr.range())) return addr;
  }
  return undefined;
}

/** A label that carries encoded data rather than a name. */
export function encodedLabel(label: string): boolean {
  if (label.length >= 32 && /^[0-9a-f]+$/i.test(label)) return true;
  if (label.length >= 32 && /^[a-z2-7]+=*$/i.test(label) && /[2-7].*[2-7].*[2-7]/.test(label)) return true;
  if (label.length >= 32 && /^[A-Za-z0-9_-]+$/.test(label)) {
    const digits = label.replace(/\D/g, '').length;
    if (digits >= 3 && shannonEntropy(label) >= 3.8) return true;
  }
  if (label.length >= 24 && /^[a-z0-9]+$/i.test(label)) {
    const digits = label.replace(/\D/g, '').length;
    if (digits >= 4 && label.length - digits >= 4 && shannonEntropy(label) >= 4) return true;
  }
  return false;
}

/** Why a DNS name carries data in its labels, or undefined. */
export function encodedNameReason(host: string): string | undefined {
  // Names under a suffix the public list does not know (`x.data.example`) keep their last two labels.
  const registrable = getDomain(host) ?? host.split('.').slice(-2).join('.');
  const sub = host.length > registrable.length ? host.slice(0, -registrable.length - 1) : '';
  if (sub === '' || PLATFORMS.has(registrable)) return undefined;
  if (sub.split('.').some(encodedLabel)) return 'DNS name carries encoded data in a label';
  return undefined;
}

/**
 * Words that only a tunnel, catcher, paste site or file drop puts in its name. Generic words
 * and the few tool names that became words for the thing (ngrok, serveo, interactsh): no
 * service names copied from the sink list, so the leave-one-source-out score means something.
 */
const STRONG_NAME =
  /tunnel|ngrok|serveo|pipedream|requestbin|requestcatcher|hookbin|webhook|paste|oast|interactsh|collaborator|canarytoken|dnslog|filedrop|anonfile|tempfile|tmpfile|expose/;
/** Words common among such services, but not only theirs: one sign among others. */
const WEAK_WORDS = [
  /bin$|^bin/,
  /drop/,
  /share/,
  /upload|uploo/,
  /file/,
  /transfer/,
  /send/,
  /temp|tmp/,
  /anon/,
  /sync/,
  /hook/,
  /catch/,
  /collab/,
  /interact/,
  /relay/,
  /proxy/,
  /dump|leak/,
];
const WEAK_NAME = new RegExp(WEAK_WORDS.map((w) => w.source).join('|'));

/** Points from a registrable name: 2 when it is only such a word (`file.io`) or holds two (`tmpfiles`). */
function weakNameScore(name: string): number {
  const words = WEAK_WORDS.filter((w) => w.test(name)).length;
  if (words === 0) return 0;
  if (
    words >= 2 ||
    /^(?:file|files|paste|upload|uploads|share|send|drop|transfer|temp|tmp|bin)\d*$/.test(name)
  )
    return 2;
  return 1;
}

/** A first label that is an id, not a name: `x7f3k2`, `a7952694`, a UUID. */
export function randomLabel(label: string): 0 | 1 | 2 {
  if (/^[0-9a-f]{8,}$/.test(label) && /\d.*\d/.test(label)) return 2;
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(label)) return 2;
  if (label.length < 6 || !/^[a-z0-9]+$/.test(label)) return 0;
  const digits = label.replace(/\D/g, '').length;
  if (digits < 2 || digits === label.length) return 0;
  let switches = 0;
  for (let i = 1; i < label.length; i++) {
    if (/\d/.test(label[i]!) !== /\d/.test(label[i - 1]!)) switches++;
  }
  return switches >= 3 ? 1 : 0;
}

const UPLOAD_SEGMENT = /^(?:upload|uploads|put|drop|exfil|collect|catch|bin|in|e|x|data|loot)$/;
const HOOK_SEGMENT = /^(?:hook|hooks|webhook|webhooks|callback|callbacks)$/;
const PASTE_SEGMENT = /^(?:paste|pastes|documents|raw|api_post\.php)$/;
const ID_SEGMENT = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{10,40})$/i;
const FILE_SEGMENT = /\.[a-z0-9]{1,5}$/i;
const ENCODED_VALUE = /^[A-Za-z0-9+/_-]{24,}={0,2}$/;

export interface RequestShape {
  host: string;
  /** Decoded path, e.g. `/upload/report.csv`. */
  path: string;
  /** Query values, decoded. */
  queryValues: readonly string[];
  /** The request carries data: a body, an upload, a POST/PUT, or a value only known at run time. */
  sendsData: boolean;
}

export interface SinkSign {
  category: 'tunnel or catcher' | 'paste or file drop';
  reason: string;
}

/**
 * Weighs the signs of an unlisted exfiltration service. A strong name blocks alone; otherwise
 * three points are needed from: a weak name (1; 2 when the name is only such a word or holds
 * two), a strong or weak keyword in a sub-domain (2
 * or 1), a random id as first label (1, or 2 for hex
 * ids and UUIDs), an upload/hook/paste path (1, or 2 for an upload path that names a file, a
 * paste path, or a hook path ending in an id), an id as the whole path (1), an encoded query
 * value (1), data being sent (1). Shared platforms (cloud hosting, SaaS) and well-known brands
 * carry no sign from their names or random sub-domains.
 */
export function sinkSign(request: RequestShape): SinkSign | undefined {
  const { host } = request;
  const registrable = getDomain(host) ?? host;
  if (PLATFORMS.has(registrable)) return undefined;
  const name = getDomainWithoutSuffix(host) ?? registrable;
  if (STRONG_NAME.test(name) || STRONG_NAME.test(registrable)) {
    return {
      category: 'tunnel or catcher',
      reason: `the name ${registrable} is that of a tunnel, catcher or paste service`,
    };
  }
  const signs: string[] = [];
  let score = 0;
  const named = weakNameScore(name);
  if (named > 0) {
    score += named;
    signs.push('service name');
  }
  if (host.length > registrable.length) {
    // A keyword in a sub-domain (`paste.example.net`, `tunnel.example.dev`) is a sign, not proof.
    const sub = host.slice(0, -registrable.length - 1);
    if (STRONG_NAME.test(sub)) {
      score += 2;
      signs.push('service sub-domain');
    } else if (sub.split('.').some((label) => WEAK_NAME.test(label))) {
      score += 1;
      signs.push('service sub-domain');
    }
    const first = host.slice(0, host.indexOf('.'));
    const random = randomLabel(first);
    if (random > 0) {
      score += random;
      signs.push('random sub-domain');
    }
  }
  const segments = request.path
    .toLowerCase()
    .split('/')
    .filter((s) => s !== '');
  const hook = segments.findIndex((s) => HOOK_SEGMENT.test(s));
  if (segments.some((s) => PASTE_SEGMENT.test(s))) {
    score += 2;
    signs.push('paste path');
  } else if (segments.some((s) => UPLOAD_SEGMENT.test(s))) {
    const upload = segments.findIndex((s) => UPLOAD_SEGMENT.test(s));
    const namesFile = segments.slice(upload + 1).some((s) => FILE_SEGMENT.test(s));
    score += namesFile ? 2 : 1;
    signs.push('upload path');
  } else if (hook >= 0) {
    score += segments.slice(hook + 1).some((s) => ID_SEGMENT.test(s)) ? 2 : 1;
    signs.push('hook path');
  } else if (segments.length === 1 && ID_SEGMENT.test(segments[0]!)) {
    score += 1;
    signs.push('id path');
  }
  if (request.queryValues.some((v) => ENCODED_VALUE.test(v))) {
    score += 1;
    signs.push('encoded query value');
  }
  if (request.sendsData) {
    score += 1;
    signs.push('data sent');
  }
  if (score < 3) return undefined;
  return {
    category: 'tunnel or catcher',
    reason: `looks like a tunnel, catcher or drop (${signs.join(', ')})`,
  };
}
