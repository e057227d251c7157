import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { TestApp } from './app.ts';

/** Every byte the database holds: the SQLite files on disk, or every row of every table in PostgreSQL. */
export async function databaseContents(t: TestApp): Promise<string> {
  await t.container.meter.flush();
  if (t.db.database.kind === 'sqlite') {
    // The database file with its -wal and -shm companions; the data directory holds other files too.
    const name = path.basename(t.db.database.file);
    return fs
      .readdirSync(t.db.dir)
      .filter((f) => f.startsWith(name))
      .map((f) => fs.readFileSync(path.join(t.db.dir, f)).toString('latin1'))
      .join('\n');
  }
  const client = new pg.Client({ connectionString: t.db.database.url });
  await client.connect();
  try {
    const tables = await client.query<{ tablename: string }>(
      "select tablename from pg_tables where schemaname = 'public'",
    );
    let dump = '';
    for (const { tablename } of tables.rows) {
      const rows = await client.query(`select * from "${tablename}"`);
      dump += JSON.stringify(rows.rows);
    }
    return dump;
  } finally {
    await client.end();
  }
}
