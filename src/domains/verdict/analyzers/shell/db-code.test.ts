import { describe, expect, it } from 'vitest';
import { evaluateAction } from '../../engine.ts';

const shell = (command: string) =>
  evaluateAction({ action: 'shell.exec', payload: { command } }).finding?.code ?? null;

describe('databases reached through code', () => {
  it.each([
    [`node -e "const k=require('knex')(cfg); k.raw('DROP TABLE users CASCADE')"`, 'DEST_MUTATION'],
    [`node -e "db('orders').del().then(()=>process.exit())"`, 'DEST_MUTATION'],
    [
      `python -c "from sqlalchemy import text; c.execute(text('TRUNCATE accounts, payments'))"`,
      'DEST_MUTATION',
    ],
    [
      `python3 -c "import psycopg; c=psycopg.connect(u); c.execute('DELETE FROM customers'); c.commit()"`,
      'DEST_MUTATION',
    ],
    [`python3 -c "cur.execute('ALTER ROLE app_user WITH SUPERUSER')"`, 'POLICY_VIOLATION'],
    [`node -e "sequelize.sync({force:true}).then(()=>process.exit(0))"`, 'DEST_MUTATION'],
    [`node -e "m.connection.dropDatabase()"`, 'DEST_MUTATION'],
    [`node -e "new (require('ioredis'))(u).flushall()"`, 'DEST_MUTATION'],
    [`rails runner 'User.destroy_all'`, 'DEST_MUTATION'],
    [`rails runner "ActiveRecord::Base.connection.execute('TRUNCATE users')"`, 'DEST_MUTATION'],
    [
      `python manage.py shell -c "from orders.models import Order; Order.objects.all().delete()"`,
      'DEST_MUTATION',
    ],
    [`php artisan tinker --execute="App\\Models\\User::query()->delete();"`, 'DEST_MUTATION'],
    ['flyway -url=jdbc:postgresql://db:5432/app clean', 'DEST_MUTATION'],
    // narrow, read-only or migrations
    [`node -e "db('orders').where({id: 42}).del()"`, null],
    [`python3 -c "c.execute('SELECT id, email FROM users WHERE id = %s', (42,))"`, null],
    [`python3 -c "c.execute('DELETE FROM sessions WHERE expires_at < now()')"`, null],
    [`rails runner 'User.where(id: 42).destroy_all'`, null],
    [`python manage.py shell -c "Order.objects.filter(status='stale').delete()"`, null],
    [`node -e "p.user.findMany({take: 10})"`, null],
    ['flyway -url=jdbc:postgresql://db:5432/app info', null],
  ])('%s → %s', (command, code) => {
    expect(shell(command)).toBe(code);
  });
});
