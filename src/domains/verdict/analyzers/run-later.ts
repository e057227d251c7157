import { parseDocument } from 'yaml';

/**
 * Project files whose content runs later, by someone else's hand: a CI workflow on the next push,
 * a package's install scripts on the next install, a Makefile recipe, a Dockerfile's RUN, a
 * compose service, an MCP server the editor starts, an agent's hooks. Each is read with its own
 * format's parser and turned into the command lines it will run, which are then judged as
 * commands. Agent and editor settings that approve every command are a security control.
 */

/** Command lines taken from one file at most: enough for real files, bounded for crafted ones. */
const MAX_COMMANDS = 64;
/** Text read from one file: a larger one is read up to here. */
const MAX_CONTENT = 256 * 1024;

export interface RunLater {
  /** What kind of file it is, for messages: `a CI workflow`, `package.json's install scripts`. */
  kind: string;
  /** The command lines it will run. */
  commands: string[];
  /** Settings that turn a guard off (an agent told to run every command without asking). */
  approvesEverything?: string;
}

const base = (path: string) => path.slice(path.lastIndexOf('/') + 1).toLowerCase();

/** A CI secret's name as a variable the shell reading takes for a secret (`DEPLOY_HOST_SECRET`). */
function secretName(name: string): string {
  return /(?:TOKEN|SECRET|KEY|PASSWORD|PASSWD|CREDENTIALS?)$/i.test(name) ? name : `${name}_SECRET`;
}

/** `${{ secrets.X }}` reads a secret of the CI system: as a command, a variable holding a secret. */
function ciExpressions(text: string): string {
  return text
    .replace(
      /\$\{\{\s*secrets\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g,
      (_, name: string) => `\${${secretName(name)}}`,
    )
    .replace(/\$\{\{\s*github\.token\s*\}\}/g, '$' + '{GITHUB_TOKEN}')
    .replace(/\$\{\{\s*toJSON\(\s*secrets\s*\)\s*\}\}/gi, '$(printenv)')
    .replace(/\$\{\{[^}]*\}\}/g, 'x');
}

const SCRIPT_KEYS = new Set([
  'run',
  'script',
  'before_script',
  'after_script',
  'command',
  'commands',
  'inlinescript',
  'bash',
  'sh',
  'pwsh',
  'powershell',
  'cmd',
  'entrypoint',
  'pre_build',
  'build',
  'post_build',
]);

/** Every string under a key that holds commands, anywhere in a YAML or JSON document. */
function scriptsIn(value: unknown, out: string[], key = ''): void {
  if (out.length >= MAX_COMMANDS) return;
  if (typeof value === 'string') {
    if (SCRIPT_KEYS.has(key.toLowerCase())) out.push(value);
  } else if (Array.isArray(value)) {
    // A list under a command key is a list of commands (`script: [a, b]`); `command: [exe, args]`
    // in compose is one argv.
    if (key === 'command' || key === 'entrypoint') {
      if (value.every((v) => typeof v === 'string')) out.push(value.join(' '));
      return;
    }
    for (const item of value) scriptsIn(item, out, key);
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) scriptsIn(v, out, k);
  }
}

/** The document, or undefined where the YAML parser finds it malformed. */
function parseYaml(content: string): unknown {
  try {
    const doc = parseDocument(content.slice(0, MAX_CONTENT), { uniqueKeys: false });
    if (doc.errors.length > 0) return undefined;
    return doc.toJS({ maxAliasCount: 100 });
  } catch {
    return undefined;
  }
}

function parseJson(content: string): unknown {
  try {
    return JSON.parse(content.slice(0, MAX_CONTENT)) as unknown;
  } catch {
    return undefined;
  }
}

const CI_FILE =
  /(?:^|\/)(?:\.github\/workflows\/[^/]+\.ya?ml|\.gitlab-ci\.ya?ml|azure-pipelines\.ya?ml|\.circleci\/config\.ya?ml|bitbucket-pipelines\.ya?ml|\.travis\.ya?ml|\.drone\.ya?ml|\.buildkite\/[^/]*\.ya?ml|buildspec\.ya?ml|cloudbuild\.ya?ml|\.woodpecker\.ya?ml|\.woodpecker\/[^/]+\.ya?ml|appveyor\.ya?ml|\.gitea\/workflows\/[^/]+\.ya?ml|\.forgejo\/workflows\/[^/]+\.ya?ml)$/i;
const COMPOSE_FILE = /(?:^|\/)(?:docker-)?compose(?:\.[\w-]+)?\.ya?ml$/i;
const MCP_FILE =
  /(?:^|\/)(?:\.mcp\.json|mcp\.json|claude_desktop_config\.json|mcp_settings\.json|cline_mcp_settings\.json|\.cursor\/mcp\.json|\.vscode\/mcp\.json|\.gemini\/settings\.json|\.codeium\/windsurf\/mcp_config\.json|\.continue\/config\.json|\.roo\/mcp\.json|\.amazonq\/mcp\.json)$/i;
const AGENT_SETTINGS = /(?:^|\/)\.claude\/settings(?:\.local)?\.json$/i;
const VSCODE_SETTINGS = /(?:^|\/)\.vscode\/settings\.json$/i;
const VSCODE_TASKS = /(?:^|\/)\.vscode\/tasks\.json$/i;
const DOCKERFILE = /(?:^|\/)(?:[\w.-]*\.)?(?:dockerfile|containerfile)(?:\.[\w-]+)?$/i;
const MAKEFILE = /(?:^|\/)(?:GNUmakefile|makefile|Makefile|[\w.-]+\.mk)$/;
const SHELL_HOOK = /(?:^|\/)(?:\.husky\/(?!_\/)[^/]+|\.envrc|\.lefthook\/[^/]+\/[^/]+)$/;
const DEVCONTAINER = /(?:^|\/)\.devcontainer(?:\/[^/]+)?\/devcontainer\.json$|(?:^|\/)\.devcontainer\.json$/;
const PRE_COMMIT = /(?:^|\/)\.pre-commit-config\.ya?ml$/;
const CODEX_CONFIG = /(?:^|\/)\.codex\/config\.toml$/;
const PYTHON_HOOK = /(?:^|\/)(?:setup\.py|sitecustomize\.py|usercustomize\.py|[^/]+\.pth)$/i;

/**
 * Command lines of a YAML file a parser refuses (a runner may still accept it, or the writer
 * meant it anyway): `key: command` lines and the block under `key: |`.
 */
function scriptLines(content: string): string[] {
  const out: string[] = [];
  const lines = content.slice(0, MAX_CONTENT).split('\n');
  for (let i = 0; i < lines.length && out.length < MAX_COMMANDS; i++) {
    const m = /^(\s*)(?:-\s+)?([A-Za-z_]+)\s*:\s*(.*)$/.exec(lines[i]!);
    if (!m || !SCRIPT_KEYS.has(m[2]!.toLowerCase())) continue;
    const value = m[3]!.trim();
    if (/^[|>][-+]?$/.test(value)) {
      const block: string[] = [];
      const indent = m[1]!.length;
      while (i + 1 < lines.length && (lines[i + 1]!.trim() === '' || lines[i + 1]!.search(/\S/) > indent)) {
        block.push(lines[++i]!.trim());
      }
      out.push(block.join('\n'));
    } else if (value !== '') out.push(value.replace(/^(["'])(.*)\1$/, '$2'));
  }
  return out;
}

function ciCommands(content: string): string[] {
  const out: string[] = [];
  const doc = parseYaml(content);
  if (doc === undefined) out.push(...scriptLines(content));
  else scriptsIn(doc, out);
  return out.map(ciExpressions);
}

function jenkinsCommands(content: string): string[] {
  const out: string[] = [];
  for (const m of content
    .slice(0, MAX_CONTENT)
    .matchAll(
      /\b(?:sh|bat|powershell)\s*\(?\s*(?:'''([\s\S]{0,8192}?)'''|"""([\s\S]{0,8192}?)"""|'([^'\n]*)'|"([^"\n]*)")/g,
    )) {
    if (out.length >= MAX_COMMANDS) break;
    out.push(m[1] ?? m[2] ?? m[3] ?? m[4] ?? '');
  }
  return out;
}

function packageScripts(content: string): string[] {
  const pkg = parseJson(content) as { scripts?: Record<string, unknown> } | undefined;
  if (!pkg || typeof pkg.scripts !== 'object' || pkg.scripts === null) return [];
  return Object.values(pkg.scripts)
    .filter((v): v is string => typeof v === 'string')
    .slice(0, MAX_COMMANDS);
}

function makefileRecipes(content: string): string[] {
  const out: string[] = [];
  const lines = content.slice(0, MAX_CONTENT).split('\n');
  for (let i = 0; i < lines.length && out.length < MAX_COMMANDS; i++) {
    if (!lines[i]!.startsWith('\t')) continue;
    let line = lines[i]!.slice(1);
    while (line.endsWith('\\') && i + 1 < lines.length) line = `${line.slice(0, -1)} ${lines[++i]!.trim()}`;
    out.push(
      line
        .replace(/^[@+-]+/, '')
        .replace(/\$\$/g, '$')
        .replace(/\$\(([A-Za-z_]\w*)\)/g, '$$$1'),
    );
  }
  return out;
}

function dockerfileRuns(content: string): string[] {
  const out: string[] = [];
  const lines = content.slice(0, MAX_CONTENT).split('\n');
  for (let i = 0; i < lines.length && out.length < MAX_COMMANDS; i++) {
    const m = /^\s*(RUN|CMD|ENTRYPOINT)\s+(.*)$/i.exec(lines[i]!);
    if (!m) continue;
    let body = m[2]!;
    while (body.trimEnd().endsWith('\\') && i + 1 < lines.length)
      body = `${body.trimEnd().slice(0, -1)} ${lines[++i]!.trim()}`;
    body = body.replace(/^--\S+\s+/g, '');
    const exec = parseJson(body);
    out.push(Array.isArray(exec) && exec.every((v) => typeof v === 'string') ? exec.join(' ') : body);
  }
  return out;
}

/** A compose service as the `docker run` that starts it, so the container rules judge it. */
function composeRuns(content: string): string[] {
  const doc = parseYaml(content) as { services?: Record<string, Record<string, unknown>> } | undefined;
  if (!doc || typeof doc.services !== 'object' || doc.services === null) return [];
  const out: string[] = [];
  for (const service of Object.values(doc.services).slice(0, MAX_COMMANDS)) {
    if (service === null || typeof service !== 'object') continue;
    const argv = ['docker', 'run'];
    if (service.privileged === true) argv.push('--privileged');
    if (service.pid === 'host') argv.push('--pid=host');
    if (service.network_mode === 'host') argv.push('--network=host');
    for (const cap of Array.isArray(service.cap_add) ? service.cap_add : [])
      argv.push(`--cap-add=${String(cap)}`);
    for (const volume of Array.isArray(service.volumes) ? service.volumes : []) {
      if (typeof volume === 'string') argv.push('-v', volume);
      else if (volume && typeof volume === 'object' && 'source' in volume && 'target' in volume) {
        argv.push('-v', `${String(volume.source)}:${String(volume.target)}`);
      }
    }
    argv.push(typeof service.image === 'string' ? service.image : 'service');
    const command = service.command;
    if (typeof command === 'string') argv.push(command);
    else if (Array.isArray(command)) argv.push(...command.map(String));
    out.push(argv.map((a) => (/^[\w./:=@%+,-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' '));
    if (typeof command === 'string') out.push(command);
  }
  return out;
}

function mcpServers(content: string): string[] {
  const doc = parseJson(content) as Record<string, unknown> | undefined;
  if (!doc) return [];
  const servers = (doc.mcpServers ??
    doc.servers ??
    (doc.mcp as Record<string, unknown> | undefined)?.servers) as
    | Record<string, { command?: unknown; args?: unknown }>
    | undefined;
  if (!servers || typeof servers !== 'object') return [];
  const out: string[] = [];
  for (const server of Object.values(servers).slice(0, MAX_COMMANDS)) {
    if (!server || typeof server.command !== 'string') continue;
    const args = Array.isArray(server.args) ? server.args.map(String) : [];
    out.push(
      [server.command, ...args]
        .map((a) => (/^[\w./:=@%+,-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`))
        .join(' '),
    );
  }
  return out;
}

/** Claude Code's settings: its hooks run commands; `Bash(*)` or bypassPermissions approves them all. */
function agentSettings(content: string): RunLater {
  const doc = parseJson(content) as
    | { hooks?: unknown; permissions?: { allow?: unknown; defaultMode?: unknown } }
    | undefined;
  const commands: string[] = [];
  scriptsIn(doc?.hooks, commands);
  const allow = Array.isArray(doc?.permissions?.allow) ? doc.permissions.allow.map(String) : [];
  const everything =
    doc?.permissions?.defaultMode === 'bypassPermissions'
      ? 'permissions.defaultMode bypassPermissions'
      : allow.find((rule) => /^Bash(?:\(\s*\*?\s*(?::\s*\*)?\s*\))?$/.test(rule.trim()));
  return {
    kind: "the agent's settings",
    commands,
    ...(everything ? { approvesEverything: everything } : {}),
  };
}

function vscodeSettings(content: string): RunLater {
  const doc = parseJson(content) as Record<string, unknown> | undefined;
  const approve = doc?.['chat.tools.autoApprove'] ?? doc?.['chat.tools.global.autoApprove'];
  const yolo = approve === true ? 'chat.tools.autoApprove true' : undefined;
  const terminal = doc?.['chat.tools.terminal.autoApprove'] as Record<string, unknown> | undefined;
  const everything =
    terminal && Object.entries(terminal).some(([k, v]) => v === true && /^\/?\.\*\/?$|^\*$/.test(k));
  return {
    kind: "the editor's settings",
    commands: [],
    ...((yolo ?? everything)
      ? { approvesEverything: yolo ?? 'chat.tools.terminal.autoApprove for every command' }
      : {}),
  };
}

function vscodeTasks(content: string): string[] {
  const doc = parseJson(content) as { tasks?: Array<{ command?: unknown; args?: unknown }> } | undefined;
  return (doc?.tasks ?? [])
    .filter((t) => typeof t?.command === 'string')
    .slice(0, MAX_COMMANDS)
    .map((t) => [t.command as string, ...(Array.isArray(t.args) ? t.args.map(String) : [])].join(' '));
}

/** Python that runs on install or on every start of the interpreter, as `python3 -c` would run it. */
function pythonHook(path: string, content: string): string[] {
  const code = base(path).endsWith('.pth')
    ? content
        .split('\n')
        .filter((line) => /^import[\s;]/.test(line))
        .join('\n')
    : content;
  if (code.trim() === '') return [];
  return [`python3 -c '${code.slice(0, MAX_CONTENT).replace(/'/g, `'\\''`)}'`];
}

/** A dev container's lifecycle commands: strings, argv arrays, or objects of either. */
function devcontainerCommands(content: string): string[] {
  const doc = parseJson(content.replace(/^\s*\/\/.*$/gm, '')) as Record<string, unknown> | undefined;
  const out: string[] = [];
  for (const key of [
    'initializeCommand',
    'onCreateCommand',
    'updateContentCommand',
    'postCreateCommand',
    'postStartCommand',
    'postAttachCommand',
  ]) {
    const value = doc?.[key];
    const each = (v: unknown) => {
      if (typeof v === 'string') out.push(v);
      else if (Array.isArray(v) && v.every((x) => typeof x === 'string')) out.push(v.join(' '));
    };
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      Object.values(value).forEach(each);
    else each(value);
  }
  return out.slice(0, MAX_COMMANDS);
}

/** pre-commit's local hooks: `entry` runs as a command. */
function preCommitEntries(content: string): string[] {
  const doc = parseYaml(content) as { repos?: Array<{ hooks?: Array<{ entry?: unknown }> }> } | undefined;
  return (doc?.repos ?? [])
    .flatMap((repo) => repo?.hooks ?? [])
    .flatMap((hook) => (typeof hook?.entry === 'string' ? [hook.entry] : []))
    .slice(0, MAX_COMMANDS);
}

/** Codex's config: MCP servers it starts, and an approval policy that never asks. */
function codexConfig(content: string): RunLater {
  const text = content.slice(0, MAX_CONTENT);
  const commands: string[] = [];
  for (const m of text.matchAll(/^\s*command\s*=\s*"([^"\n]*)"\s*(?:\n\s*args\s*=\s*\[([^\]\n]*)\])?/gm)) {
    const args = [...(m[2] ?? '').matchAll(/"([^"\n]*)"/g)].map((a) => a[1]!);
    commands.push([m[1]!, ...args].join(' '));
  }
  const never = /^\s*approval_policy\s*=\s*"never"/m.test(text) ? 'approval_policy "never"' : undefined;
  const open = /^\s*sandbox_mode\s*=\s*"danger-full-access"/m.test(text)
    ? 'sandbox_mode "danger-full-access"'
    : undefined;
  const everything = never ?? open;
  return {
    kind: "the agent's settings",
    commands,
    ...(everything ? { approvesEverything: everything } : {}),
  };
}

/** What a file at `path` (normalised) will run later, if it is one of the kinds above. */
export function runLater(path: string, content: string): RunLater | undefined {
  const name = base(path);
  if (CI_FILE.test(path)) return { kind: 'a CI workflow', commands: ciCommands(content) };
  if (name === 'jenkinsfile' || name.endsWith('.jenkinsfile')) {
    return { kind: 'a Jenkins pipeline', commands: jenkinsCommands(content) };
  }
  if (name === 'package.json') return { kind: "package.json's scripts", commands: packageScripts(content) };
  if (MAKEFILE.test(path)) return { kind: 'a Makefile', commands: makefileRecipes(content) };
  if (DOCKERFILE.test(path)) return { kind: 'a Dockerfile', commands: dockerfileRuns(content) };
  if (COMPOSE_FILE.test(path)) return { kind: 'a compose file', commands: composeRuns(content) };
  if (MCP_FILE.test(path)) {
    const doc = parseJson(content) as { autoAccept?: unknown; yolo?: unknown } | undefined;
    const everything =
      doc?.autoAccept === true ? 'autoAccept true' : doc?.yolo === true ? 'yolo true' : undefined;
    return {
      kind: 'an MCP client configuration',
      commands: mcpServers(content),
      ...(everything ? { approvesEverything: everything } : {}),
    };
  }
  if (AGENT_SETTINGS.test(path)) return agentSettings(content);
  if (VSCODE_SETTINGS.test(path)) return vscodeSettings(content);
  if (VSCODE_TASKS.test(path)) return { kind: "the editor's tasks", commands: vscodeTasks(content) };
  if (SHELL_HOOK.test(path))
    return { kind: 'a hook the shell or git runs', commands: [content.slice(0, MAX_CONTENT)] };
  if (DEVCONTAINER.test(path)) return { kind: 'a dev container', commands: devcontainerCommands(content) };
  if (PRE_COMMIT.test(path))
    return { kind: 'a pre-commit configuration', commands: preCommitEntries(content) };
  if (CODEX_CONFIG.test(path)) return codexConfig(content);
  if (PYTHON_HOOK.test(path)) {
    return { kind: 'Python that runs on install or start', commands: pythonHook(path, content) };
  }
  return undefined;
}
