/** The verdict actions a tool call can be mapped to. */
export type VerdictAction = 'shell.exec' | 'db.query' | 'http.request' | 'fs.read' | 'fs.write' | 'fs.delete';

/** What a tool call is judged as: a verdict on a known action, or the judgment engine for anything else. */
export type MappedCall =
  | { kind: 'verdict'; action: VerdictAction; payload: Record<string, unknown> }
  | { kind: 'judgment'; action_type: string; payload: Record<string, unknown> };

export interface ToolCall {
  name: string;
  args: Record<string, unknown>;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function fileAction(name: string): 'fs.read' | 'fs.write' | 'fs.delete' | undefined {
  const n = name.toLowerCase();
  // Most destructive first: a "remove_or_write" tool is judged as a delete.
  if (/delete|remove/.test(n)) return 'fs.delete';
  if (/write|edit|create|move/.test(n)) return 'fs.write';
  if (/read|get|list/.test(n)) return 'fs.read';
  return undefined;
}

/** The text a write would put in the file, from the argument names editing tools use. */
function writtenContent(args: Record<string, unknown>): string {
  for (const key of ['content', 'contents', 'text', 'new_string', 'newText', 'data']) {
    const value = str(args[key]);
    if (value !== undefined) return value;
  }
  return '';
}

/**
 * Maps a tool call to an Arbiter action by the names of its arguments: `command`/`cmd` → shell.exec,
 * `sql` → db.query, `url` → http.request, `path`/`file_path` → fs.read, fs.write or fs.delete by the
 * tool's name. Anything else goes to the judgment engine with the tool's name as `action_type`.
 */
export function mapToolCall(call: ToolCall): MappedCall {
  const { name, args } = call;
  const command = str(args.command) ?? str(args.cmd);
  if (command !== undefined) {
    const cwd = str(args.cwd);
    return { kind: 'verdict', action: 'shell.exec', payload: { command, ...(cwd ? { cwd } : {}) } };
  }
  const sql = str(args.sql);
  if (sql !== undefined) return { kind: 'verdict', action: 'db.query', payload: { sql } };
  const url = str(args.url);
  if (url !== undefined) {
    const method = str(args.method);
    return {
      kind: 'verdict',
      action: 'http.request',
      payload: { url, ...(method && /^[A-Za-z]{1,16}$/.test(method) ? { method } : {}) },
    };
  }
  const path = str(args.path) ?? str(args.file_path);
  const action = path === undefined ? undefined : fileAction(name);
  if (path !== undefined && action !== undefined) {
    const payload: Record<string, unknown> = { path };
    if (action === 'fs.write') payload.content = writtenContent(args);
    if (action === 'fs.delete' && typeof args.recursive === 'boolean') payload.recursive = args.recursive;
    return { kind: 'verdict', action, payload };
  }
  return { kind: 'judgment', action_type: name, payload: args };
}
