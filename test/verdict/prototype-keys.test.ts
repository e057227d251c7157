// biome-ignore-all lint/suspicious/noTemplateCurlyInString: shell commands, not templates
import { describe, expect, it } from 'vitest';
import { evaluateAction } from '../../src/domains/verdict/engine.ts';

/**
 * Words a request controls are looked up in tables of programs, variables, parameters and
 * words. A word that names something on Object.prototype must read as unknown, never as the
 * inherited function: the property suite once found `toString` as a command answering 500.
 */
const WORDS = [...Object.getOwnPropertyNames(Object.prototype), 'prototype', 'toJSON', 'then'];

const SHAPES: { action: string; payload: (w: string) => Record<string, unknown> }[] = [
  ...[
    (w: string) => w,
    (w: string) => `${w} -rf /`,
    (w: string) => `sudo ${w} -c 'rm -rf /'`,
    (w: string) => `env ${w}=1 ${w}`,
    (w: string) => `${w}=rm; $${w} -rf /`,
    (w: string) => `alias ${w}='rm -rf'; ${w} /`,
    (w: string) => `npx ${w}`,
    (w: string) => `git ${w} --${w}`,
    (w: string) => `kubectl ${w} ${w}`,
    (w: string) => `echo ${w} | xargs ${w}`,
    (w: string) => `printf '\\${w}' | tr ${w} ${w}`,
    (w: string) => `powershell -c "${w} -${w} $env:${w} $${w}"`,
    (w: string) => `powershell -c "Remove-Item -${w} C:\\x"`,
    (w: string) => `cmd /c "${w} %${w}% /${w}"`,
    (w: string) => `python -c "import ${w}; ${w}.${w}('/')"`,
    (w: string) => `curl -X ${w} -H '${w}: x' https://${w}.example/`,
  ].map((shape) => ({
    action: 'shell.exec',
    payload: (w: string) => ({ command: shape(w), env: { [w]: w } }),
  })),
  ...[
    (w: string) => w,
    (w: string) => `SELECT ${w}(1) FROM ${w}`,
    (w: string) => `EXEC ${w}`,
    (w: string) => `${w} TABLE ${w}`,
  ].flatMap((shape) =>
    ['postgres', 'mysql', 'mssql', 'sqlite'].map((dialect) => ({
      action: 'db.query',
      payload: (w: string) => ({ sql: shape(w), dialect }),
    })),
  ),
  { action: 'fs.read', payload: (w) => ({ path: `%${w}%\\${w}` }) },
  { action: 'fs.write', payload: (w) => ({ path: `~${w}/${w}`, content: w }) },
  { action: 'fs.delete', payload: (w) => ({ path: `/${w}`, recursive: true }) },
  { action: 'http.request', payload: (w) => ({ url: `https://${w}/${w}`, method: w, body: { [w]: w } }) },
  { action: 'email.send', payload: (w) => ({ to: `${w}@${w}`, subject: w, body: `${w} ${w}` }) },
  { action: 'agent.respond', payload: (w) => ({ text: `The ${w} is ${w}. ${w} costs ten euros.` }) },
  { action: 'custom.action', payload: (w) => ({ [w]: w }) },
];

describe('words that name Object.prototype members', () => {
  for (const { action, payload } of SHAPES) {
    it(`are read as unknown in ${action}: ${JSON.stringify(payload('toString')).slice(0, 70)}`, () => {
      for (const word of WORDS) {
        const verdict = evaluateAction({ action, payload: payload(word) });
        expect(typeof verdict.is_safe, `${action} with ${word}`).toBe('boolean');
      }
    });
  }

  it('do not hide what the rest of the command does', () => {
    for (const word of WORDS) {
      const verdict = evaluateAction({
        action: 'shell.exec',
        payload: { command: `${word}; rm -rf /` },
      });
      expect(verdict.is_safe, word).toBe(false);
    }
  });
});
