import { parseArgs } from 'node:util';
import { openDatabase } from '@/server/db/client';
import { acquirePgliteLock, holderOf } from '@/server/db/pglite-lock';
import type { Database } from '@/server/db/types';
import { loadConfig } from '@/server/lib/config';
import { COMMANDS, UsageError, type Command } from './commands';

const USAGE = `Fulfillment Rail operator CLI

  npm run cli -- <command> [options] [--json]

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(16)} ${c.summary}\n${' '.repeat(19)}${c.usage}`)
  .join('\n')}

--json prints exactly one JSON document. With the embedded database (no DATABASE_URL) the CLI refuses
while a running server holds the data directory: use the ops API (/v1/ops/...) then.`;

async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  const args = argv.filter((a) => a !== '--json');
  const print = (value: unknown, human: string) => process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${human}\n`);
  const fail = (message: string, code: number) => {
    if (json) process.stdout.write(`${JSON.stringify({ error: { message } })}\n`);
    else process.stderr.write(`${message}\n`);
    return code;
  };

  const [name, ...rest] = args;
  if (!name || name === '--help' || name === 'help') {
    print({ usage: USAGE }, USAGE);
    return name ? 0 : 2;
  }
  const command: Command | undefined = COMMANDS[name];
  if (!command) return fail(`Unknown command '${name}'. Run with --help for the list.`, 2);

  let options: Record<string, string | undefined>;
  try {
    options = parseArgs({ args: rest, options: command.options, strict: true }).values as Record<string, string | undefined>;
    command.validate?.(options);
  } catch (err) {
    return fail(err instanceof Error ? err.message : String(err), 2);
  }

  const config = loadConfig();
  if (!config.DATABASE_URL) {
    const holder = holderOf(config.PGLITE_DATA_DIR);
    if (holder) {
      return fail(
        `A running Fulfillment Rail server (pid ${holder}) holds the embedded database at ${config.PGLITE_DATA_DIR}. ` +
          'Stop it, or use the ops API (/v1/ops/...) against the running server instead.',
        2,
      );
    }
    acquirePgliteLock(config.PGLITE_DATA_DIR);
  }
  let database: Database | undefined;
  try {
    database = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDataDir: config.PGLITE_DATA_DIR });
    await database.migrate();
    const result = await command.run(database.db, options);
    print(result.value, result.human);
    return 0;
  } catch (err) {
    const known = err instanceof UsageError || (err as Error)?.name === 'AppError';
    return fail(err instanceof Error ? err.message : String(err), known ? 2 : 1);
  } finally {
    await database?.close().catch(() => undefined);
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code));
