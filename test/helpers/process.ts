import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

export const BIN = path.resolve('bin/arbiter.js');

export interface Started {
  child: ChildProcess;
  url: string;
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
    const timer = setTimeout(
      () => reject(new Error(`not listening after 10 s: ${stdout} ${stderr}`)),
      10_000,
    );
    child.stdout!.on('data', (d) => {
      stdout += d;
      const m = /"url":"(http:\/\/[^"]+)","database"/.exec(stdout);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1]!, stderr: () => stderr, exited });
      }
    });
    exited.then((code) => reject(new Error(`exited with ${code}: ${stderr}`)));
  });
}
