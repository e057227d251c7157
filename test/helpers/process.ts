import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

export const BIN = path.resolve('bin/arbiter.js');

// The CLI runs the compiled build: bring dist/ up to date with the sources first (once per file).
const build = spawnSync(process.execPath, [path.resolve('scripts/build.mjs'), '--if-stale'], {
  stdio: ['ignore', 'inherit', 'inherit'],
});
if (build.status !== 0) throw new Error('scripts/build.mjs failed: the CLI under test would be stale');

export interface Started {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote so far (its structured log lines on stdout). */
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts `arbiter serve` as a real process on a free port; resolves once it listens. */
export function serve(env: Record<string, string>): Promise<Started> {
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
      // A server that never listened is not left running after the test.
      child.kill('SIGKILL');
      reject(new Error(`not listening after 30 s: ${stdout} ${stderr}`));
    }, 30_000);
    child.stdout!.on('data', (d) => {
      stdout += d;
      const m = /"url":"(http:\/\/[^"]+)","database"/.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, stdout: () => stdout, stderr: () => stderr, exited });
      }
    });
    exited.then((code) => reject(new Error(`exited with ${code}: ${stderr}`)));
  });
}
