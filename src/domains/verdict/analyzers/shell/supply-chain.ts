import type { Finding } from '../../codes.ts';
import type { EgressSettings } from '../egress.ts';

/**
 * Installs from outside the package registries: a tarball or git URL, a foreign index or
 * registry, a remote script run by URL, and install scripts or checksum checks turned off. Code
 * from a registry comes with its name, its versions and the registry's own checks; code from a
 * URL comes with none of them. A domain the account trusts (egress settings) counts as a registry.
 */

/** The registries themselves, and the hosts they serve packages from. */
const REGISTRIES = [
  'registry.npmjs.org',
  'registry.yarnpkg.com',
  'npm.pkg.github.com',
  'pypi.org',
  'pypi.python.org',
  'files.pythonhosted.org',
  'download.pytorch.org',
  'rubygems.org',
  'crates.io',
  'static.crates.io',
  'index.crates.io',
  'proxy.golang.org',
  'sum.golang.org',
  'repo.maven.apache.org',
  'repo1.maven.org',
  'conda.anaconda.org',
  'repo.anaconda.com',
  'community.chocolatey.org',
  'deno.land',
  'jsr.io',
  'pkg.go.dev',
  'api.nuget.org',
  'packagist.org',
  'repo.packagist.org',
  'hex.pm',
  'cocoapods.org',
  'pub.dev',
];

function hostOf(url: string): string | undefined {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^:/?#]+)/i.exec(url);
  return m?.[1]?.toLowerCase();
}

function trusted(host: string, egress: EgressSettings): boolean {
  const listed = [...REGISTRIES, ...(egress.trusted_domains ?? [])];
  return listed.some((d) => host === d || host.endsWith(`.${d.replace(/^\*\./, '')}`));
}

/** A package spec that names code by where it lives instead of by its registry name. */
function remoteSpec(spec: string, npm = false): string | undefined {
  const s = spec.replace(/^["']|["']$/g, '');
  if (/^(?:git\+|git:\/\/|git@|hg\+|svn\+|bzr\+)/i.test(s)) return 'a git repository';
  if (/^(?:github|gitlab|bitbucket|gist):/i.test(s)) return 'a repository';
  if (/^https?:\/\//i.test(s))
    return /\.(?:tgz|tar\.gz|tar\.bz2|zip|whl|gem|tar)(?:[?#].*)?$|\/tar\.gz\//i.test(s)
      ? 'a tarball URL'
      : 'a URL';
  // npm's `user/repo` and `user/repo#ref`: GitHub, not the registry (scoped names start with `@`).
  if (npm && /^[A-Za-z0-9][\w.-]*\/[\w.-]+(?:#\S*)?$/.test(s) && !/\.[cm]?[jt]sx?$|\.json$/.test(s)) {
    return 'a GitHub repository';
  }
  // A name@URL alias (`pkg@https://…`, `pkg@github:…`).
  const at = /^(@?[^@\s]+)@((?:https?|git\+\S+|github|gitlab):.*)$/i.exec(s);
  return at ? remoteSpec(at[2]!, npm) : undefined;
}

const NPM = /^(?:npm|pnpm|yarn|bun|cnpm)$/;
/** Every program this module judges. */
const INSTALLERS =
  /^(?:npm|pnpm|yarn|bun|cnpm|npx|pnpx|bunx|pip[\d.]*|uvx?|pipx|gem|conda|mamba|micromamba|choco|cargo|deno|python[\d.]*)$/;
const NPM_INSTALL = new Set([
  'install',
  'i',
  'add',
  'isntall',
  'in',
  'ins',
  'inst',
  'insta',
  'instal',
  'update',
  'upgrade',
  'up',
]);
const RUNNERS = /^(?:npx|pnpx|bunx)$/;

const INDEX_OPTIONS = new Set([
  '-i',
  '--index-url',
  '--extra-index-url',
  '--registry',
  '--source',
  '-s',
  '--index',
  '-c',
  '--channel',
  '--find-links',
  '-f',
]);

/** `--opt value` or `--opt=value`: the values of any of these options. */
function optionValues(args: readonly string[], options: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    if (eq > 0 && options.has(arg.slice(0, eq))) out.push(arg.slice(eq + 1));
    else if (options.has(arg) && args[i + 1] !== undefined) out.push(args[++i]!);
  }
  return out;
}

const finding = (name: string, what: string): Finding => ({
  code: 'POLICY_VIOLATION',
  message: `${name} ${what}: code from outside the package registries`,
  location: `command "${name}"`,
});

/** Findings for one program run with `args` (the walk has already unwrapped sudo, env, …). */
export function judgeSupplyChain(name: string, args: readonly string[], egress: EgressSettings): Finding[] {
  // Most programs install nothing: one test keeps this off their path.
  if (!INSTALLERS.test(name)) return [];
  let program = name;
  let rest = args;
  // `python -m pip install …` is pip; `uv pip install …` too.
  if (/^python[\d.]*$/.test(name) && args[0] === '-m' && /^pip[\d.]*$/.test(args[1] ?? '')) {
    program = 'pip';
    rest = args.slice(2);
  } else if (name === 'uv' && args[0] === 'pip') rest = args.slice(1);
  const sub = rest.find((a) => !a.startsWith('-'));
  const out: Finding[] = [];

  // Installs turned back on, checksums turned off, a foreign registry set as the default.
  const line = rest.join(' ');
  if (/^(?:npm|pnpm|yarn|bun)$/.test(program) && /\bconfig\s+set\b/.test(line)) {
    if (/\b(?:ignore-scripts\s*[= ]\s*false|enableScripts\s*[= ]\s*true)\b/i.test(line)) {
      out.push(finding(program, 'turns install scripts back on'));
    }
    const registry = /\bregistry\s*[= ]\s*(\S+)/.exec(line)?.[1];
    const host = registry ? hostOf(registry) : undefined;
    if (host !== undefined && !trusted(host, egress))
      out.push(finding(program, `sets ${host} as the registry`));
  }
  if (/^pip[\d.]*$/.test(program) && sub === 'config' && /\bindex-url\b/.test(line)) {
    const host = hostOf(rest.find((a) => /^https?:\/\//.test(a)) ?? '');
    if (host !== undefined && !trusted(host, egress))
      out.push(finding(program, `sets ${host} as the package index`));
  }

  const installs =
    (NPM.test(program) && sub !== undefined && NPM_INSTALL.has(sub)) ||
    (/^pip[\d.]*$|^uv$/.test(program) && (sub === 'install' || sub === 'download')) ||
    (/^(?:pipx|uv)$/.test(program) && (sub === 'install' || sub === 'run' || sub === 'tool')) ||
    program === 'uvx' ||
    RUNNERS.test(program) ||
    (program === 'pnpm' && sub === 'dlx') ||
    (program === 'yarn' && sub === 'dlx') ||
    (/^(?:gem|conda|mamba|micromamba|choco|cargo)$/.test(program) && sub === 'install');
  if (installs) {
    const positional = rest.filter((a, i) => !a.startsWith('-') && !INDEX_OPTIONS.has(rest[i - 1] ?? ''));
    // A runner's first operand is the package; the rest are that program's own arguments.
    const bare = RUNNERS.test(program) || program === 'uvx';
    const specs = bare
      ? positional.slice(0, 1)
      : sub === 'dlx' || sub === 'run'
        ? positional.slice(1, 2)
        : positional.slice(1);
    const npm = NPM.test(program) || RUNNERS.test(program);
    for (const spec of [
      ...specs,
      ...optionValues(rest, new Set(['--from', '--spec', '--git', '--package', '-p'])),
    ]) {
      const kind = remoteSpec(spec, npm);
      if (kind === undefined) continue;
      const host = hostOf(spec.replace(/^git\+/, ''));
      if (host !== undefined && trusted(host, egress)) continue;
      out.push(finding(program, `installs ${kind} (${spec.slice(0, 120)})`));
      break;
    }
    for (const index of optionValues(rest, INDEX_OPTIONS)) {
      const host = hostOf(index);
      if (host !== undefined && !trusted(host, egress)) {
        out.push(finding(program, `installs from the index ${host}`));
        break;
      }
    }
  }
  // `deno run https://…`: a remote script run as it is.
  if (program === 'deno' && (sub === 'run' || sub === 'install' || sub === 'x')) {
    const url = rest.find((a) => /^https?:\/\//.test(a));
    const host = url ? hostOf(url) : undefined;
    if (url !== undefined && host !== undefined && !trusted(host, egress))
      out.push(finding(program, `runs ${url.slice(0, 120)}`));
  }
  return out;
}

/** Go's checksum database switched off in the environment of a command: modules are no longer verified. */
export function judgeGoEnvironment(env: ReadonlyMap<string, string>): Finding[] {
  const off =
    env.get('GOSUMDB') === 'off' ||
    env.get('GONOSUMDB') === '*' ||
    env.get('GONOSUMCHECK') === '1' ||
    env.get('GOFLAGS')?.includes('-insecure') === true ||
    env.get('GOINSECURE') === '*';
  return off ? [finding('go', 'turns off the checksum database that verifies modules')] : [];
}

/** Lines of a manifest read at most. */
const MAX_MANIFEST_LINES = 2000;

/**
 * A manifest written to the project that makes later installs take code from outside the
 * registries: requirements files, package.json dependencies, .npmrc, pip.conf, .yarnrc.yml.
 */
export function judgeManifest(path: string, content: string, egress: EgressSettings): Finding[] {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const lines = content.split('\n').slice(0, MAX_MANIFEST_LINES);
  const found = (what: string): Finding[] => [
    {
      code: 'POLICY_VIOLATION',
      message: `${name} ${what}: later installs take code from outside the package registries`,
      location: `path ${path.slice(0, 200)}`,
    },
  ];
  const untrusted = (url: string) => {
    const host = hostOf(url.trim().replace(/^["']|["']$/g, ''));
    return host !== undefined && !trusted(host, egress) ? host : undefined;
  };
  if (/^(?:requirements|constraints)[\w.-]*\.(?:txt|in)$/.test(name)) {
    for (const line of lines) {
      const index = /^\s*(?:-i|--index-url|--extra-index-url|-f|--find-links)[=\s]+(\S+)/.exec(line)?.[1];
      const host = index ? untrusted(index) : undefined;
      if (host) return found(`adds the package index ${host}`);
      const spec = line.trim().split(/\s+/)[0] ?? '';
      const kind = spec.startsWith('-') ? undefined : remoteSpec(spec.replace(/^[\w.-]+\s*@\s*/, ''));
      if (kind && untrusted(spec.replace(/^[\w.-]+\s*@\s*/, '').replace(/^git\+/, '')) !== undefined) {
        return found(`installs ${kind} (${spec.slice(0, 120)})`);
      }
    }
  } else if (name === 'package.json') {
    let pkg: Record<string, unknown>;
    try {
      pkg = JSON.parse(content) as Record<string, unknown>;
    } catch {
      return [];
    }
    for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies']) {
      const deps = pkg[field];
      if (deps === null || typeof deps !== 'object') continue;
      for (const [dep, spec] of Object.entries(deps as Record<string, unknown>)) {
        if (typeof spec !== 'string') continue;
        const kind = remoteSpec(spec, true);
        if (kind && untrusted(spec.replace(/^git\+/, '')) !== undefined)
          return found(`takes ${dep} from ${kind} (${spec.slice(0, 120)})`);
        if (kind && hostOf(spec) === undefined)
          return found(`takes ${dep} from ${kind} (${spec.slice(0, 120)})`);
      }
    }
  } else if (
    name === '.npmrc' ||
    name === 'pip.conf' ||
    name === 'pip.ini' ||
    name === '.yarnrc.yml' ||
    name === '.yarnrc'
  ) {
    for (const line of lines) {
      if (/^\s*(?:ignore-scripts\s*=\s*false|enableScripts\s*:\s*true)\s*$/i.test(line))
        return found('turns install scripts back on');
      const url =
        /^\s*(?:registry|(?:extra-)?index-url|npmRegistryServer|@[\w-]+:registry)\s*[=:]\s*(\S+)/i.exec(
          line,
        )?.[1];
      const host = url ? untrusted(url) : undefined;
      if (host) return found(`sets ${host} as the registry`);
    }
  }
  return [];
}
