import { describe, expect, it } from 'vitest';
import { tokenizeSql } from '../sql-lexer.ts';
import { segmentStatement } from './segments.ts';

const leaders = (sql: string) => segmentStatement(tokenizeSql(sql)).map((segment) => segment[0]?.value);

describe('segmentStatement', () => {
  it.each([
    ["IF OBJECT_ID('t') IS NOT NULL DROP TABLE t", ['IF', 'DROP']],
    ['IF 1=1 BEGIN DELETE FROM t END ELSE PRINT 1', ['IF', 'BEGIN', 'DELETE', 'END', 'ELSE', 'PRINT']],
    ['WHILE @i < 3 SET @i = @i + 1', ['WHILE', 'SET']],
    ["EXEC('x') EXEC('y')", ['EXEC', 'EXEC']],
    ['SELECT 1\nGO\nDROP TABLE t', ['SELECT', 'GO', 'DROP']],
    // Keywords that are not statements where they stand.
    ['DROP TABLE IF EXISTS t', ['DROP']],
    ["SELECT IF(a > 1, 'x', 'y') FROM t", ['SELECT']],
    ["SELECT CASE WHEN a = 1 THEN 'x' ELSE 'y' END FROM t", ['SELECT']],
    ['UPDATE t SET a = 1 WHERE b = 2', ['UPDATE']],
    ['INSERT INTO t (a) VALUES (1) ON DUPLICATE KEY UPDATE a = 2', ['INSERT']],
    ['GRANT SELECT, INSERT, UPDATE, DELETE ON t TO bob', ['GRANT']],
    ['ALTER TABLE t ADD CONSTRAINT f FOREIGN KEY (a) REFERENCES u ON DELETE CASCADE', ['ALTER']],
    ['ALTER TABLE t DROP COLUMN c', ['ALTER']],
    ['CREATE OR ALTER PROCEDURE p AS DELETE FROM t', ['CREATE', 'DELETE']],
    ['CREATE TRIGGER tr AFTER DELETE ON t FOR EACH ROW DELETE FROM u', ['CREATE', 'DELETE']],
    ['SELECT * FROM t FOR UPDATE', ['SELECT']],
    ['SELECT 1 AS delete, 2 AS alter', ['SELECT']],
    ['CREATE PROCEDURE p AS DELETE FROM t', ['CREATE', 'DELETE']],
  ])('%s', (sql, want) => {
    expect(leaders(sql)).toEqual(want);
  });
});
