/**
 * Loopback as an agent's own environment. A coding agent tests its own app on `localhost`: a dev
 * server, a local database, a search engine in a container. From its shell, those are its own
 * services, reached on ports any user may open (≥ 1024). Some loopback services are not the
 * agent's whatever their port: the container engine's API (root on the host), the kubelet (a
 * shell in every pod of the node), and the endpoints that hand out cloud credentials.
 */

/** Ports below this are bound by the system's own services (sshd, SMTP, DNS, CUPS), not the agent. */
export const FIRST_UNPRIVILEGED_PORT = 1024;

/** Loopback ports that are never the agent's own, with why. */
const NEVER_LOCAL_PORTS = new Map<number, string>([
  [2375, 'the Docker engine API (whoever reaches it is root on the host)'],
  [2376, 'the Docker engine API over TLS (whoever reaches it is root on the host)'],
  [2377, 'the Docker swarm manager API'],
  [4243, 'the Docker engine API (its older port)'],
  [10250, 'the kubelet API (it runs commands in every pod of the node)'],
  [10255, 'the kubelet read-only API'],
  [40342, 'the Azure Arc identity endpoint (it hands out managed-identity tokens)'],
  [50342, 'the Azure managed-identity endpoint'],
  [9911, "IAM Roles Anywhere's credential endpoint"],
  [51678, 'the Amazon ECS agent API'],
  [51679, 'the Amazon ECS task credential endpoint'],
]);

/** Paths of the instance-metadata and credential APIs, which emulators also serve on loopback. */
const CREDENTIAL_PATH =
  /^\/(?:latest\/(?:meta-data|api\/token|user-data|dynamic)|computeMetadata\/|metadata\/(?:identity|instance)|v2\/credentials|v1\/credentials|get-credentials)/i;

/** Loopback host names and literals as agents write them; other encodings of 127.0.0.1 are not. */
export function isLoopbackHost(rawHost: string): boolean {
  // No loopback name is longer than a DNS name; a megabyte of host is not read twice.
  if (rawHost.length > 255) return false;
  const host = rawHost
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '::1' || host === '0:0:0:0:0:0:0:1' || host === '0.0.0.0') return true;
  const octets = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host)?.slice(1) ?? [];
  // Dotted decimal only: `2130706433`, `0x7f.1` and `0177.0.0.1` are not how anyone names a dev server.
  return octets.length === 3 && octets.every((o) => (o === '0' || !o.startsWith('0')) && Number(o) <= 255);
}

export type LocalService = { own: true; origin: string } | { own: false; origin: string; reason: string };

/**
 * A loopback destination as the agent's shell reaches it, or undefined when the host is not
 * loopback. `port` is the port the client connects to (its scheme's default when the URL names
 * none); `origins` are the account's named local origins, which are the agent's own whatever the
 * port.
 */
export function localService(
  host: string,
  port: number | undefined,
  options: { path?: string; scheme?: string; origins?: readonly string[] } = {},
): LocalService | undefined {
  if (!isLoopbackHost(host)) return undefined;
  const scheme = options.scheme ?? 'http';
  const origin = `${scheme}://${host.toLowerCase()}${port === undefined ? '' : `:${port}`}`;
  const never = port === undefined ? undefined : NEVER_LOCAL_PORTS.get(port);
  if (never !== undefined) return { own: false, origin, reason: `loopback port ${port} is ${never}` };
  if (options.path !== undefined && CREDENTIAL_PATH.test(options.path)) {
    return {
      own: false,
      origin,
      reason: `${options.path.slice(0, 40)} on loopback is a cloud credential endpoint`,
    };
  }
  if (options.origins?.includes(originOf(scheme, host, port))) return { own: true, origin };
  if (port === undefined)
    return {
      own: false,
      origin,
      reason: "a loopback service on an unknown port is not known to be the agent's own",
    };
  if (port < FIRST_UNPRIVILEGED_PORT) {
    return {
      own: false,
      origin,
      reason: `loopback port ${port} is a privileged port: a system service, not the agent's own (its own servers listen on ports from ${FIRST_UNPRIVILEGED_PORT})`,
    };
  }
  return { own: true, origin };
}

const DEFAULT_PORTS: Record<string, number> = { http: 80, https: 443 };

/** `scheme://host:port` as `URL.origin` writes it (the default port left out). */
export function originOf(scheme: string, host: string, port: number | undefined): string {
  const lower = host.toLowerCase();
  const bracketed = lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower;
  return port === undefined || DEFAULT_PORTS[scheme] === port
    ? `${scheme}://${bracketed}`
    : `${scheme}://${bracketed}:${port}`;
}

/** Why an origin cannot be named as the agent's own, or undefined when it can. */
export function localOriginProblem(origin: URL): string | undefined {
  if (origin.protocol !== 'http:' && origin.protocol !== 'https:') return 'must be an http or https origin';
  if (origin.username !== '' || origin.password !== '') return 'must not carry credentials';
  if (origin.pathname !== '/' || origin.search !== '' || origin.hash !== '')
    return 'must be an origin (scheme, host and port), without a path';
  if (!isLoopbackHost(origin.hostname))
    return 'must be a loopback origin (localhost, 127.0.0.1, [::1]); other hosts are judged by the egress settings';
  const port = origin.port === '' ? DEFAULT_PORTS[origin.protocol.slice(0, -1)] : Number(origin.port);
  const never = port === undefined ? undefined : NEVER_LOCAL_PORTS.get(port);
  if (never !== undefined) return `is ${never}: never a local origin`;
  return undefined;
}

/** The host of a URL as written, before any parsing normalises it. */
export function urlHost(text: string): string | undefined {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)/i.exec(text);
  return m ? m[1]! : undefined;
}

const WEB_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** A web URL on loopback as the agent's own service or not; undefined for any other URL. */
export function webLocalService(
  text: string,
  origins: readonly string[] | undefined,
): LocalService | undefined {
  // As written: the URL parser reads `2130706433` as 127.0.0.1, a spelling no dev server has.
  if (!isLoopbackHost(urlHost(text) ?? '')) return undefined;
  const url = parseHttpUrl(text);
  const defaultPort = url === undefined ? undefined : WEB_PORTS[url.protocol];
  if (url === undefined || defaultPort === undefined) return undefined;
  return localService(url.hostname, url.port === '' ? defaultPort : Number(url.port), {
    path: url.pathname,
    scheme: url.protocol.slice(0, -1),
    ...(origins ? { origins } : {}),
  });
}

export function parseHttpUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}
