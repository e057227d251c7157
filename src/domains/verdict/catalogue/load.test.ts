import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_RULE_COUNT, loadBuiltInRules, RULES_DIR } from './index.ts';
import { buildRegistry, readRuleFiles } from './load.ts';

const program = { kubectl: { valueOptions: ['-n'] } };
const rule = {
  id: 'k.delete-ns',
  program: 'kubectl',
  path: ['delete ns'],
  code: 'DEST_MUTATION',
  message: 'm',
};

function errorsOf(...files: { name: string; data: unknown; unreadable?: string }[]): string[] {
  const built = buildRegistry(files);
  return built.ok ? [] : built.errors;
}

describe('built-in rule files', () => {
  it('all load and compile', () => {
    const built = buildRegistry(readRuleFiles(RULES_DIR));
    expect(built.ok ? [] : built.errors).toEqual([]);
    expect(BUILT_IN_RULE_COUNT).toBeGreaterThan(100);
  });

  it('stop the start when one is invalid, naming file, rule and field', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalogue-'));
    try {
      for (const file of fs.readdirSync(RULES_DIR))
        fs.copyFileSync(new URL(file, RULES_DIR), path.join(dir, file));
      const broken = {
        version: 1,
        family: 'broken',
        rules: [{ id: 'x', program: 'kubectl', code: 'WIPE', message: 'm' }],
      };
      fs.writeFileSync(path.join(dir, 'zz-broken.json'), JSON.stringify(broken));
      expect(() => loadBuiltInRules(pathToFileURL(`${dir}/`))).toThrow(
        /invalid rule files:\n {2}zz-broken\.json: rule 0 \(x\), field code: must be one of/,
      );
    } finally {
      fs.rmSync(dir, { recursive: true });
    }
  });
});

describe('rule file validation', () => {
  it('accepts a minimal file', () => {
    expect(
      errorsOf({ name: 'a.json', data: { version: 1, family: 'k8s', programs: program, rules: [rule] } }),
    ).toEqual([]);
  });

  it('names the file, rule index, id and field of each problem', () => {
    const errors = errorsOf({
      name: 'bad.json',
      data: {
        version: 1,
        family: 'k8s',
        programs: program,
        rules: [rule, { ...rule, id: 'k.two', code: 'DESTROY' }, { ...rule, id: 'k.three', colour: 'red' }],
      },
    });
    expect(errors).toEqual([
      'bad.json: rule 1 (k.two), field code: must be one of DEST_MUTATION, FILESYSTEM_DENIED, POLICY_VIOLATION, EXFILTRATION_BLOCKED',
      'bad.json: rule 2 (k.three): has an unknown field "colour"',
    ]);
  });

  it('rejects an unknown version, broken JSON and a missing rules list', () => {
    expect(errorsOf({ name: 'v.json', data: { version: 2, family: 'x', rules: [] } })).toEqual([
      'v.json: field version: must be 1',
    ]);
    expect(errorsOf({ name: 'j.json', data: undefined, unreadable: 'Unexpected token' })).toEqual([
      'j.json: is not valid JSON: Unexpected token',
    ]);
    expect(errorsOf({ name: 'r.json', data: { version: 1, family: 'x' } })[0]).toContain(
      "must have required property 'rules'",
    );
  });

  it('rejects patterns outside RE2, undefined programs, duplicate ids and programs, missing messages', () => {
    const errors = errorsOf(
      {
        name: 'a.json',
        data: {
          version: 1,
          family: 'a',
          programs: program,
          rules: [
            { ...rule, operands: { any: '(a)\\1' } },
            { ...rule, program: 'kubctl' },
            { id: 'k.nomsg', program: 'kubectl', code: 'DEST_MUTATION' },
          ],
        },
      },
      { name: 'b.json', data: { version: 1, family: 'b', programs: program, rules: [] } },
    );
    expect(errors).toEqual([
      'b.json: program "kubectl" is already defined in a.json',
      expect.stringMatching(
        /^a\.json: rule 0 \(k\.delete-ns\), field operands\.any: is not a linear-time \(RE2\) pattern/,
      ),
      'a.json: rule 1 (k.delete-ns): the id is already used in a.json',
      'a.json: rule 1 (k.delete-ns), field program: "kubctl" is not defined in any rule file\'s programs',
      'a.json: rule 2 (k.nomsg), field message: is required (only extract and delegate rules may leave it out)',
    ]);
  });

  it('accepts a cypher extract, but not with a SQL dialect', () => {
    const shell = { 'cypher-shell': { valueOptions: ['-u'] } };
    const cypher = { id: 'c.stmt', program: 'cypher-shell', extract: { language: 'cypher', operand: 0 } };
    expect(
      errorsOf({ name: 'c.json', data: { version: 1, family: 'c', programs: shell, rules: [cypher] } }),
    ).toEqual([]);
    const dialect = { ...cypher, extract: { ...cypher.extract, dialect: 'postgres' } };
    expect(
      errorsOf({ name: 'c.json', data: { version: 1, family: 'c', programs: shell, rules: [dialect] } }),
    ).toEqual([
      'c.json: rule 0 (c.stmt), field extract.dialect: is a SQL dialect; a cypher extract takes none',
    ]);
  });
});
