import { parseArgs } from 'node:util';
import { openDatabase } from '@/server/db/client';
import { acquirePgliteLock, holderOf } from '@/server/db/pglite-lock';
import type { Database } from '@/server/db/types';
import { AppError } from '@/server/lib/errors';
import { loadConfig } from '@/server/lib/config';
import { COMMANDS, Offline, UsageError, type Command } from './commands';

const describe = ([name, c]: [string, Command]) => `  ${name.padEnd(16)} ${c.summary}${c.usage ? `\n${' '.repeat(19)}${c.usage}` : ''}`;
const USAGE = `Fulfillment Rail operator CLI

  npm run cli -- <command> [options] [--json]

Commands:
${Object.entries(COMMANDS).map(describe).join('\n')}

--json prints exactly one JSON document on stdout (npm adds its own banner there: pipe \`npm run -s cli -- …\`).
With the embedded database (no DATABASE_URL) the CLI refuses while a running server holds the data directory:
use the ops API (/v1/ops/...) then.`;

class Exit {
  constructor(
    readonly code: number,
    readonly value: unknown,
    readonly human: string,
  ) {}
}

const failure = (message: string, code = 2) => new Exit(code, { error: { message } }, message);

async function run(argv: string[]): Promise<Exit> {
  const args = argv.filter((a) => a !== '--json');
  const [name, ...rest] = args;
  const command: Command | undefined = name && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (args.includes('--help') || args.includes('-h') || name === 'help') {
    const text = command ? `npm run cli -- ${name} ${command.usage ? `${command.usage} ` : ''}[--json]\n\n${command.summary}` : USAGE;
    return new Exit(0, { usage: text }, text);
  }
  if (!name) return failure(`No command given.\n\n${USAGE}`);
  if (!command) return failure(`Unknown command '${name}'. Run with --help for the list.`);

  let work: ReturnType<Command['prepare']>;
  try {
    const { values, positionals } = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: Boolean(command.positionals) });
    if (positionals.length > (command.positionals ?? 0)) throw new UsageError(`Unexpected argument '${positionals[command.positionals ?? 0]}'`);
    work = command.prepare(values as Record<string, string | undefined>, positionals);
  } catch (err) {
    return failure(err instanceof Error ? err.message : String(err));
  }
  if (work instanceof Offline) {
    const result = await work.run();
    return new Exit(result.code ?? 0, result.value, result.human);
  }

  const config = loadConfig();
  if (!config.DATABASE_URL && !config.PGLITE_DATA_DIR.startsWith('memory://')) {
    // PGlite is single-process: never open a data directory a live server is using.
    const holder = holderOf(config.PGLITE_DATA_DIR);
    if (holder) {
      return failure(
        `Another Fulfillment Rail process (pid ${holder}, usually the running server) holds the embedded database at ${config.PGLITE_DATA_DIR}. ` +
          'Stop it, or use the ops API (/v1/ops/...) against the running server instead.',
      );
    }
    acquirePgliteLock(config.PGLITE_DATA_DIR); // released at exit; a server cannot start meanwhile
  }
  let database: Database | undefined;
  try {
    database = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDataDir: config.PGLITE_DATA_DIR });
    await database.migrate();
    const result = await work(database.db, config);
    return new Exit(result.code ?? 0, result.value, result.human);
  } finally {
    await database?.close().catch(() => undefined);
  }
}

async function main(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  let outcome: Exit;
  try {
    outcome = await run(argv);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // The operator's input (unknown tenant, scope not grantable, …) versus the system failing.
    const operatorError = err instanceof UsageError || (err instanceof AppError && err.status < 500);
    outcome = failure(message, operatorError ? 2 : 1);
  }
  const out = json || outcome.code === 0 ? process.stdout : process.stderr;
  const text = json ? JSON.stringify(outcome.value) : outcome.human;
  await new Promise<void>((resolve) => out.write(`${text}\n`, () => resolve()));
  return outcome.code;
}

main(process.argv.slice(2)).then((code) => process.exit(code));
