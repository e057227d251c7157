import { describe, expect, it } from 'vitest';
import { analyzeSql, analyzeSqlLexically } from './sql.ts';

const cases: [string, string | null][] = [
  ['SELECT * FROM users WHERE id = 1', null],
  ['INSERT INTO t (a) VALUES (1)', null],
  ['DELETE FROM t WHERE id = 3', null],
  ['UPDATE t SET a = 1 WHERE b = 2 AND c > 3', null],
  ['DELETE FROM t WHERE 1 = 0', null],
  ['DELETE FROM t', 'DEST_MUTATION'],
  ['UPDATE t SET a = 1', 'DEST_MUTATION'],
  ['DELETE FROM t WHERE 1=1', 'DEST_MUTATION'],
  ["UPDATE t SET a = 1 WHERE 'a' = 'a'", 'DEST_MUTATION'],
  ['DELETE FROM t WHERE TRUE', 'DEST_MUTATION'],
  ['DELETE FROM t WHERE id = 4 OR 2 > 1', 'DEST_MUTATION'],
  ['DELETE FROM t WHERE id = id', 'DEST_MUTATION'],
  ['DROP TABLE users', 'DEST_MUTATION'],
  ['DROP SCHEMA app CASCADE', 'DEST_MUTATION'],
  ['DROP DATABASE prod', 'DEST_MUTATION'],
  ['TRUNCATE orders', 'DEST_MUTATION'],
  ['WITH gone AS (DELETE FROM t RETURNING *) SELECT * FROM gone', 'DEST_MUTATION'],
  ['CREATE TABLE t (a int)', 'POLICY_VIOLATION'],
  ['CREATE OR REPLACE VIEW v AS SELECT 1', 'POLICY_VIOLATION'],
  ['ALTER TABLE t ADD COLUMN b text', 'POLICY_VIOLATION'],
  ['CREATE INDEX i ON t (a)', 'POLICY_VIOLATION'],
  ['GRANT SELECT ON t TO bob', 'POLICY_VIOLATION'],
  ['REVOKE ALL ON t FROM bob', 'POLICY_VIOLATION'],
  ['CREATE ROLE admin SUPERUSER', 'POLICY_VIOLATION'],
  ['CREATE EXTENSION pgcrypto', 'POLICY_VIOLATION'],
  // MySQL and T-SQL quoting, which the PostgreSQL grammar only accepts once standardised.
  ['DELETE FROM `users`', 'DEST_MUTATION'],
  ['DROP TABLE [dbo].[users]', 'DEST_MUTATION'],
];

describe('analyzeSql', () => {
  it.each(cases)('%s -> %s', (sql, want) => {
    expect(analyzeSql(sql)[0]?.code ?? null).toBe(want);
  });

  it('judges batches statement by statement and says which one', () => {
    const findings = analyzeSql('SELECT 1; DROP TABLE t; CREATE TABLE u (a int)');
    expect(findings.map((f) => [f.code, f.location])).toEqual([
      ['DEST_MUTATION', 'statement 2'],
      ['POLICY_VIOLATION', 'statement 3'],
    ]);
  });

  it('ignores keywords inside strings and comments', () => {
    expect(analyzeSql("SELECT 'DROP TABLE t' AS x -- TRUNCATE t")).toEqual([]);
  });
});

describe('lexical fallback', () => {
  it.each([
    ['DROP /* x */ TABLE IF EXISTS t', 'DEST_MUTATION'],
    ['delete from t where 1', 'DEST_MUTATION'],
    ["delete from t where a = 'x'", null],
    ['TRUNCATE TABLE t', 'DEST_MUTATION'],
    ['CREATE PROCEDURE p() BEGIN SELECT 1; END', 'POLICY_VIOLATION'],
    ["SELECT 'DELETE FROM t'", null],
  ])('%s -> %s', (sql, want) => {
    expect(analyzeSqlLexically(sql)[0]?.code ?? null).toBe(want);
  });

  it('catches what the parser rejects', () => {
    expect(analyzeSql('DELETE FROM t WHERE 1=1 ORDER BY id LIMIT 10 ,,,')[0]?.code).toBe('DEST_MUTATION');
  });
});
