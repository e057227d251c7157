import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import type { Container } from './container.ts';
import { DEFAULT_KEY_ROLE, KEY_ROLES, type KeyRole } from './domains/api-keys/index.ts';

// Each command loads what it needs when it runs: `arbiter --help` reads no more than commander.
const loadConfig = async () => (await import('./config.ts')).loadConfig();
// Warnings and errors only, on stderr: stdout carries the command's result alone.
const warnLogger = async () => (await import('./logger.ts')).createCommandLogger('warn');

/** Runs a command against the configured database without starting the HTTP server. */
async function withContainer<T>(run: (c: Container) => Promise<T>): Promise<T> {
  const { createContainer } = await import('./container.ts');
  const container = await createContainer(await loadConfig(), await warnLogger());
  try {
    return await run(container);
  } finally {
    await container.close();
  }
}

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

async function requireAccount(c: Container, ref: string) {
  const account = await c.services.accounts.findByIdOrEmail(ref);
  const { AppError } = await import('./errors.ts');
  if (!account) throw new AppError('NOT_FOUND', `No account with id or email '${ref}'`);
  return account;
}

/** The package's version: `package.json` sits one level above both `src/` and `dist/`. */
function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

const program = new Command('arbiter')
  .description('Checks and enforces what an AI agent proposes to do or to say.')
  .version(packageVersion(), '-V, --version', 'print the version')
  .showHelpAfterError()
  .exitOverride();

program
  .command('serve')
  .description('Serve the HTTP API (SQLite in ARBITER_DATA_DIR unless DATABASE_URL is set)')
  .action(async () => {
    const { startServer, stopOnSignals } = await import('./server.ts');
    stopOnSignals(await startServer(await loadConfig()));
  });

program
  .command('migrate')
  .description('Apply pending migrations (or undo the last one with --down)')
  .option('--down', 'undo the most recent migration')
  .action(async (opts: { down?: boolean }) => {
    const { migrateDown, migrateToLatest, openDatabase } = await import('./db/database.ts');
    const db = openDatabase((await loadConfig()).database);
    try {
      const done = opts.down ? await migrateDown(db) : await migrateToLatest(db);
      print({ migrations: done });
    } finally {
      await db.close();
    }
  });

program
  .command('reindex')
  .description('Re-embed every stored claim with the configured embedder (after changing ARBITER_EMBEDDER)')
  .action(async () => {
    const { createContainer } = await import('./container.ts');
    const container = await createContainer(await loadConfig(), await warnLogger(), {
      skipEmbedderCheck: true,
    });
    try {
      const started = Date.now();
      const done = await container.ledger.reindex((n) => process.stderr.write(`\rre-embedded ${n} claims`));
      process.stderr.write('\n');
      print({
        reindexed: done,
        embedder: container.ledger.embedder.id,
        seconds: (Date.now() - started) / 1000,
      });
    } finally {
      await container.close();
    }
  });

const accounts = program.command('accounts').description('Manage accounts');
accounts
  .command('create')
  .requiredOption('--email <email>')
  .requiredOption('--name <name>')
  .option('--plan <plan>', 'plan id', 'free')
  .description('Create an account and print its first API key (shown once)')
  .action((opts: { email: string; name: string; plan: string }) =>
    withContainer(async (c) => print(await c.services.accounts.create(opts, { actor: 'operator' }))),
  );

accounts
  .command('list')
  .description('List every account of this instance (id, email, name, plan, created_at)')
  .action(() => withContainer(async (c) => print(await c.services.accounts.list())));

const keys = program.command('keys').description('Manage API keys');
keys
  .command('create')
  .requiredOption('--account <id-or-email>')
  .option('--name <name>', 'label for the key', 'cli')
  .addOption(
    new Option('--role <role>', 'what the key may do').choices([...KEY_ROLES]).default(DEFAULT_KEY_ROLE),
  )
  .description('Create a key for an account and print it (shown once)')
  .action((opts: { account: string; name: string; role: KeyRole }) =>
    withContainer(async (c) => {
      const account = await requireAccount(c, opts.account);
      print(await c.services.apiKeys.create(account.id, opts.name, { actor: 'operator', role: opts.role }));
    }),
  );
keys
  .command('list')
  .requiredOption('--account <id-or-email>')
  .description("List an account's keys, masked")
  .action((opts: { account: string }) =>
    withContainer(async (c) =>
      print(await c.services.apiKeys.list((await requireAccount(c, opts.account)).id)),
    ),
  );
keys
  .command('revoke')
  .argument('<key_id>')
  .requiredOption('--account <id-or-email>')
  .description('Revoke a key permanently')
  .action((keyId: string, opts: { account: string }) =>
    withContainer(async (c) => {
      await c.services.apiKeys.revoke((await requireAccount(c, opts.account)).id, keyId, 'operator');
      print({ success: true });
    }),
  );

program
  .command('secrets')
  .description('Stored secrets (webhook signing secrets), encrypted with ARBITER_SECRETS_KEY')
  .command('reencrypt')
  .description(
    'Re-encrypt every stored secret under ARBITER_SECRETS_KEY (after a rotation, before removing ARBITER_SECRETS_KEY_PREVIOUS)',
  )
  .action(() =>
    withContainer(async (c) => {
      const again = await c.services.webhooks.reencryptSecrets();
      print({
        key_id: again.key_id,
        reencrypted: c.secretsResealed.reencrypted + again.reencrypted,
        unreadable: again.unreadable,
      });
      if (again.unreadable.length > 0) process.exitCode = 1;
    }),
  );

const mcp = program
  .command('mcp')
  .description('MCP server on stdio with the tools evaluate_action, judge_action, remember, recall')
  .action(async () => {
    const { runStdioServer } = await import('./integrations/mcp-server.ts');
    await runStdioServer();
  });
mcp
  .command('guard')
  .description('Wrap a stdio MCP server and judge every tools/call before it reaches the server')
  .argument('<command>', 'the MCP server to run, after --')
  .argument('[args...]', "the server's arguments")
  .option('--config <file>', 'JSON file mapping tool names and arguments to Arbiter actions')
  .option('--cwd <dir>', "the server's working directory, where its relative paths point (default: this one)")
  .option('--fail-open', 'let calls through when Arbiter cannot be reached (default: refuse them)')
  .option('--monitor', 'never refuse; only record what would have been decided')
  .option(
    '--approval-timeout <seconds>',
    'how long an escalation, or a question to the person at the client, waits for an answer',
    '300',
  )
  .action(
    async (
      command: string,
      args: string[],
      opts: { config?: string; cwd?: string; failOpen?: boolean; monitor?: boolean; approvalTimeout: string },
    ) => {
      const { runGuard } = await import('./integrations/mcp-guard.ts');
      await runGuard({ command, args, ...opts });
    },
  );

program
  .command('hook')
  .description('Hooks for coding agents')
  .command('claude-code')
  .description(
    "Claude Code PreToolUse hook: reads the event on stdin, prints deny or ask, or nothing so that Claude Code's own permission rules apply",
  )
  .option(
    '--fail-open',
    "leave the call to Claude Code's own rules when Arbiter cannot be reached (default: deny)",
  )
  .option('--monitor', 'never deny or ask; only tell the user what would have been decided')
  .option(
    '--allow-safe',
    "answer allow for calls Arbiter judges safe and recognises, skipping Claude Code's own prompts",
  )
  .option('--actor <name>', 'actor of the calls sent to the judgment engine', 'claude-code')
  .action(async (opts: { failOpen?: boolean; monitor?: boolean; allowSafe?: boolean; actor: string }) => {
    const { runClaudeCodeHook } = await import('./integrations/claude-code-hook.ts');
    await runClaudeCodeHook(opts);
  });

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) process.exit(err.exitCode);
  const [{ ConfigError }, { AppError }] = await Promise.all([import('./config.ts'), import('./errors.ts')]);
  const message = err instanceof ConfigError || err instanceof AppError ? err.message : String(err);
  process.stderr.write(`arbiter: ${message}\n`);
  process.exit(1);
}
