import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { analyzeUrl } from '../verdict/index.ts';

/** Loopback addresses and names: reachable only when the operator allows it (local receivers, tests). */
function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (!ipaddr.isValid(bare)) return false;
  return ipaddr.process(bare).range() === 'loopback';
}

/**
 * Why an endpoint URL may not receive webhooks, or undefined when it may. The egress analyzer
 * that guards agents' requests guards ours too: no private, link-local or metadata addresses, no
 * internal names, no credentials in the URL, no known exfiltration sinks. HTTPS is required
 * except for an allowed loopback receiver; a loopback URL refused names the setting that allows it,
 * since a receiver on the operator's own machine is what a first try usually points at.
 */
export function endpointUrlProblem(raw: string, options: { allowLoopback: boolean }): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not an absolute URL';
  }
  if (options.allowLoopback && isLoopbackHost(url.hostname)) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'must use http or https';
    if (url.username !== '' || url.password !== '') return 'must not carry credentials';
    return undefined;
  }
  if (isLoopbackHost(url.hostname)) {
    return 'is a loopback address; set ARBITER_WEBHOOK_ALLOW_LOOPBACK=true to deliver to a receiver on this machine';
  }
  if (url.protocol !== 'https:') return 'must use https';
  const finding = analyzeUrl(raw)[0];
  return finding === undefined ? undefined : finding.message;
}

function addressAllowed(address: string, allowLoopback: boolean): boolean {
  if (!ipaddr.isValid(address)) return false;
  const range = ipaddr.process(address).range();
  return range === 'unicast' || (allowLoopback && range === 'loopback');
}

/**
 * A DNS lookup for outgoing deliveries that refuses names resolving to a non-public address, so a
 * name that passed the URL check cannot be pointed at an internal service later (DNS rebinding):
 * the address checked is the address connected to.
 */
export function guardedLookup(allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as dns.LookupAddress[];
      const refused = list.find((a) => !addressAllowed(a.address, allowLoopback));
      if (refused || list.length === 0) {
        const e = new Error(`${hostname} resolves to a non-public address`) as NodeJS.ErrnoException;
        e.code = 'EADDRNOTPUBLIC';
        return callback(e, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
}
