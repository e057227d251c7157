import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The CLI, which runs the compiled build in `dist/`. */
export const BIN = path.join(root, 'bin/arbiter.js');

/** Brings `dist/` up to date with the sources (`npm start`, the soak and benches do the same). */
export function buildIfStale(): void {
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--if-stale'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (build.status !== 0) throw new Error('scripts/build.mjs failed: the CLI would run a stale build');
}

/**
 * Refuses to go on with a `dist/` older than the sources: the CLI would run yesterday's code. It
 * builds nothing itself (a test run is not the place for a compile): `npm run build` does, and
 * `npm test`, `npm start` and `.ci/run` run it.
 */
export function requireFreshBuild(): void {
  const check = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--check'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  if (check.status !== 0)
    throw new Error('dist/ is stale or missing: run `npm run build` before these tests');
}

export interface Started {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote so far (its structured log lines on stdout). */
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

export interface ServeOptions {
  /**
   * Keep only warnings and errors of stdout once the process listens, rather than every line:
   * a long run at the production log level writes a line per request.
   */
  warningsOnly?: boolean;
}

/** Starts `arbiter serve` as a real process on a free port; resolves once it listens. */
export function serve(env: Record<string, string>, options: ServeOptions = {}): Promise<Started> {
  const child = spawn(process.execPath, [BIN, 'serve'], {
    env: { ...process.env, PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.stderr!.on('data', (d) => {
    stderr += d;
  });
  return new Promise((resolve, reject) => {
    // `serve` loads the name lexicon and WordNet before it listens (about a second on a quiet
    // machine, several on a CI host running other suites).
    const timer = setTimeout(() => {
      // A server that never listened is not left running.
      child.kill('SIGKILL');
      reject(new Error(`not listening after 30 s: ${stdout} ${stderr}`));
    }, 30_000);
    let listening = false;
    let partial = '';
    child.stdout!.on('data', (d) => {
      if (listening && options.warningsOnly) {
        const lines = (partial + d).split('\n');
        partial = lines.pop()!;
        for (const line of lines) if (/"level":(4|5|6)\d/.test(line)) stdout += `${line}\n`;
        return;
      }
      stdout += d;
      if (listening) return;
      const m = /"url":"(http:\/\/[^"]+)","database"/.exec(stdout);
      if (m) {
        listening = true;
        clearTimeout(timer);
        resolve({ child, url: m[1]!, stdout: () => stdout, stderr: () => stderr, exited });
      }
    });
    exited.then((code) => reject(new Error(`exited with ${code}: ${stderr}`)));
  });
}
