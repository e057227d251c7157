import { classifyPath, normalizePath, type PathContext } from '../paths.ts';

/**
 * `docker|podman run|create|exec`: what the container would run, and what of the host it
 * exposes. A container that mounts the host root, `/etc`, a credential path or the Docker socket,
 * or that runs `--privileged` or in the host's PID namespace, hands the host to whatever runs in
 * it. Paths the command names under a mount point are rewritten to the host paths they reach.
 */
export interface ContainerRun {
  /** The command run in the container, host paths substituted for mount points. */
  command: string[];
  /** Sentences naming what the container exposes (FILESYSTEM_DENIED). */
  exposures: string[];
  /** A mount point was rewritten in the command. */
  mapped: boolean;
}

/** Options of `docker run` that take a value (the ones an agent uses; unknown ones take none). */
const RUN_VALUED = new Set([
  '-a',
  '--attach',
  '--add-host',
  '--blkio-weight',
  '--cap-add',
  '--cap-drop',
  '--cgroup-parent',
  '--cgroupns',
  '--cidfile',
  '--cpu-period',
  '--cpu-quota',
  '--cpu-shares',
  '-c',
  '--cpus',
  '--cpuset-cpus',
  '--cpuset-mems',
  '--device',
  '--device-cgroup-rule',
  '--dns',
  '--dns-option',
  '--dns-search',
  '--domainname',
  '--entrypoint',
  '-e',
  '--env',
  '--env-file',
  '--expose',
  '--gpus',
  '--group-add',
  '--health-cmd',
  '--health-interval',
  '--health-retries',
  '--health-timeout',
  '-h',
  '--hostname',
  '--ip',
  '--ip6',
  '--ipc',
  '--isolation',
  '--kernel-memory',
  '-l',
  '--label',
  '--label-file',
  '--link',
  '--log-driver',
  '--log-opt',
  '--mac-address',
  '-m',
  '--memory',
  '--memory-reservation',
  '--memory-swap',
  '--mount',
  '--name',
  '--network',
  '--net',
  '--network-alias',
  '--oom-score-adj',
  '--pid',
  '--pids-limit',
  '--platform',
  '-p',
  '--publish',
  '--pull',
  '--restart',
  '--runtime',
  '--security-opt',
  '--shm-size',
  '--stop-signal',
  '--stop-timeout',
  '--storage-opt',
  '--sysctl',
  '--tmpfs',
  '--ulimit',
  '-u',
  '--user',
  '--userns',
  '--uts',
  '-v',
  '--volume',
  '--volumes-from',
  '-w',
  '--workdir',
  '--hooks-dir',
  '--secret',
  '--pod',
]);
const EXEC_VALUED = new Set([
  '-e',
  '--env',
  '--env-file',
  '-u',
  '--user',
  '-w',
  '--workdir',
  '--detach-keys',
]);
const DOCKER_SOCKET = /^\/(?:var\/)?run\/docker\.sock$|^\/var\/run\/podman|^\/run\/podman|^\/run\/containerd/;

interface Mount {
  source: string;
  target: string;
}

function parseMount(spec: string, paths: PathContext, long: boolean): Mount | undefined {
  if (long) {
    const fields = Object.fromEntries(
      spec.split(',').map((kv) => {
        const eq = kv.indexOf('=');
        return eq < 0 ? [kv, 'true'] : [kv.slice(0, eq), kv.slice(eq + 1)];
      }),
    ) as Record<string, string>;
    const source = fields['source'] ?? fields['src'];
    const target = fields['target'] ?? fields['destination'] ?? fields['dst'];
    if (source === undefined || target === undefined || (fields['type'] ?? 'volume') !== 'bind')
      return undefined;
    return { source: normalizePath(source, paths), target };
  }
  const parts = spec.split(':');
  if (parts.length < 2) return undefined;
  const source = parts[0]!;
  // A named volume is not a host path.
  if (!/^[/~.$]/.test(source)) return undefined;
  return { source: normalizePath(source, paths), target: parts[1]! };
}

function exposureOf(mount: Mount, paths: PathContext): string | undefined {
  if (mount.source === '/') return `the container mounts the host's root file system at ${mount.target}`;
  if (DOCKER_SOCKET.test(mount.source)) return 'the container mounts the Docker socket: root on the host';
  if (classifyPath(mount.source, paths) !== null) return `the container mounts the host's ${mount.source}`;
  return undefined;
}

/** Rewrites container paths under a bind mount to the host path they reach. */
function toHost(arg: string, mounts: readonly Mount[]): string {
  for (const mount of mounts) {
    const target = mount.target.replace(/\/+$/, '') || '/';
    if (target === '/') continue;
    if (arg === target || arg.startsWith(`${target}/`)) {
      const rest = arg.slice(target.length);
      return mount.source === '/' ? rest || '/' : `${mount.source}${rest}`;
    }
  }
  return arg;
}

/**
 * containerd's `ctr run [flags] IMAGE ID [COMMAND…]`: its `--mount type=bind,src=/,…`,
 * `--privileged` and host namespaces expose the host as docker's do.
 */
export function judgeCtrRun(args: readonly string[], paths: PathContext): ContainerRun | undefined {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-'))
    i += /^(?:-a|--address|-n|--namespace|--timeout|--connect-timeout)$/.test(args[i]!) ? 2 : 1;
  let sub = args[i];
  if (sub === 'container' || sub === 'c' || sub === 'containers')
    sub = args[++i] === 'create' ? 'run' : args[i];
  if (sub !== 'run') return undefined;
  const mounts: Mount[] = [];
  const exposures: string[] = [];
  let k = i + 1;
  while (k < args.length && args[k]!.startsWith('-')) {
    const arg = args[k]!;
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    const valued =
      /^--(?:mount|env|env-file|label|cwd|user|runtime|snapshotter|cni|net-host|with-ns|memory-limit|cpus|device|rootfs|annotation|platform|hostname|seccomp-profile|apparmor-profile|cap-add|cap-drop|gpus|uidmap|gidmap)$/.test(
        name,
      ) && name !== '--net-host';
    const value = eq > 0 ? arg.slice(eq + 1) : valued ? args[k + 1] : undefined;
    k += eq > 0 || !valued ? 1 : 2;
    if (name === '--privileged' && value !== 'false')
      exposures.push('the container runs --privileged: every host device is reachable');
    if (name === '--with-ns' && value && /^pid:\/proc\/1\//.test(value))
      exposures.push("the container shares the host's pid namespace");
    if (name === '--mount' && value) {
      const mount = parseMount(value.replace(/(^|,)options=[^,]*/g, ''), paths, true);
      if (mount) {
        mounts.push(mount);
        const exposure = exposureOf(mount, paths);
        if (exposure) exposures.push(exposure);
      }
    }
  }
  // IMAGE and ID come before the command.
  const command = args.slice(k + 2).map((arg) => toHost(arg, mounts));
  const mapped = command.some((arg, n) => arg !== args[k + 2 + n]);
  return { command, exposures, mapped };
}

export function judgeContainerRun(args: readonly string[], paths: PathContext): ContainerRun | undefined {
  // Global options before the subcommand (`docker -H host run …`, `podman --remote run …`).
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-'))
    i += /^(?:-H|--host|--context|-c|--config|--log-level|--url|--connection)$/.test(args[i]!) ? 2 : 1;
  let sub = args[i];
  if (sub === 'container') sub = args[++i];
  // `docker compose run -v /:/host svc …` mounts like `docker run` (the service stands for the image).
  if (sub === 'compose') {
    i++;
    while (i < args.length && args[i]!.startsWith('-'))
      i += /^(?:-f|--file|-p|--project-name|--profile|--env-file|--project-directory)$/.test(args[i]!)
        ? 2
        : 1;
    sub = args[i];
  }
  if (sub === 'exec') {
    let k = i + 1;
    while (k < args.length && args[k]!.startsWith('-')) k += EXEC_VALUED.has(args[k]!) ? 2 : 1;
    return { command: args.slice(k + 1), exposures: [], mapped: false };
  }
  if (sub !== 'run' && sub !== 'create') return undefined;
  const mounts: Mount[] = [];
  const exposures: string[] = [];
  let k = i + 1;
  while (k < args.length && args[k]!.startsWith('-') && args[k] !== '--') {
    const arg = args[k]!;
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const value =
      arg.startsWith('--') && eq > 0 ? arg.slice(eq + 1) : RUN_VALUED.has(arg) ? args[k + 1] : undefined;
    k += arg.startsWith('--') && eq > 0 ? 1 : RUN_VALUED.has(arg) ? 2 : 1;
    if (name === '--privileged' && value !== 'false')
      exposures.push('the container runs --privileged: every host device is reachable');
    if ((name === '--pid' || name === '--ipc' || name === '--userns') && value === 'host') {
      exposures.push(`the container shares the host's ${name.slice(2)} namespace`);
    }
    if (
      name === '--cap-add' &&
      value &&
      /^(?:ALL|SYS_ADMIN|SYS_PTRACE|SYS_MODULE|DAC_READ_SEARCH)$/i.test(value)
    ) {
      exposures.push(`the container gains ${value.toUpperCase()}`);
    }
    if (name === '--device' && value && /^\/dev\/(?:sd|nvme|vd|xvd|hd|mem|kmem)/.test(value)) {
      exposures.push(`the container gets the host device ${value.split(':')[0]}`);
    }
    if ((name === '-v' || name === '--volume' || name === '--mount') && value) {
      const mount = parseMount(value, paths, name === '--mount');
      if (mount) {
        mounts.push(mount);
        const exposure = exposureOf(mount, paths);
        if (exposure) exposures.push(exposure);
      }
    }
  }
  if (args[k] === '--') k++;
  const command = args.slice(k + 1).map((arg) => toHost(arg, mounts));
  const mapped = command.some((arg, n) => arg !== args[k + 1 + n]);
  return { command, exposures, mapped };
}
