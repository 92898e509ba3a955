import { parseArgs } from 'node:util';
import { openDatabase } from '@/server/db/client';
import { acquirePgliteLock, holderOf } from '@/server/db/pglite-lock';
import type { Database } from '@/server/db/types';
import { AppError } from '@/server/lib/errors';
import { loadConfig } from '@/server/lib/config';
import { Live, Offline, UsageError, type Command, type LiveIo } from './cli-command';
import { COMMANDS } from './commands';

const describe = ([name, c]: [string, Command]) => `  ${name.padEnd(16)} ${c.summary}${c.usage ? `\n${' '.repeat(19)}${c.usage}` : ''}`;
const USAGE = `Fulfillment Rail CLI: operator commands (on the database) and developer commands (listen, trigger: over the API)

  npm run cli -- <command> [options] [--json]

Commands:
${Object.entries(COMMANDS).map(describe).join('\n')}

--json prints exactly one JSON document on stdout (npm adds its own banner there: pipe \`npm run -s cli -- …\`);
listen prints one per line as it goes, then its summary.
With the embedded database (no DATABASE_URL) the CLI refuses while a running server holds the data directory:
use the ops API (/v1/ops/...) then. listen and trigger talk to the running server and open no database.`;

class Exit {
  constructor(
    readonly code: number,
    readonly value: unknown,
    readonly human: string,
  ) {}
}

const failure = (message: string, code = 2) => new Exit(code, { error: { message } }, message);

async function run(argv: string[], env: Record<string, string | undefined>, io: LiveIo): Promise<Exit> {
  const args = argv.filter((a) => a !== '--json');
  const [name, ...rest] = args;
  const command: Command | undefined = name && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (args.includes('--help') || args.includes('-h') || name === 'help') {
    const text = command ? `npm run cli -- ${name} ${command.usage ? `${command.usage} ` : ''}[--json]\n\n${command.summary}${command.help ? `\n\n${command.help}` : ''}` : USAGE;
    return new Exit(0, { usage: text }, text);
  }
  if (!name) return failure(`No command given.\n\n${USAGE}`);
  if (!command) return failure(`Unknown command '${name}'. Run with --help for the list.`);

  let work: ReturnType<Command['prepare']>;
  try {
    const { values, positionals } = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: Boolean(command.positionals) });
    if (positionals.length > (command.positionals ?? 0)) throw new UsageError(`Unexpected argument '${positionals[command.positionals ?? 0]}'`);
    work = command.prepare(values as Record<string, string | undefined>, positionals, env);
  } catch (err) {
    return failure(err instanceof Error ? err.message : String(err));
  }
  if (work instanceof Offline) {
    const result = await work.run();
    return new Exit(result.code ?? 0, result.value, result.human);
  }
  if (work instanceof Live) {
    const result = await work.run(io);
    return new Exit(result.code ?? 0, result.value, result.human);
  }

  const config = loadConfig(env);
  let releaseLock: (() => void) | undefined;
  if (!config.DATABASE_URL && !config.PGLITE_DATA_DIR.startsWith('memory://')) {
    // PGlite is single-process: never open a data directory a live server is using.
    const holder = holderOf(config.PGLITE_DATA_DIR);
    if (holder) {
      return failure(
        `Another Fulfillment Rail process (pid ${holder}, usually the running server) holds the embedded database at ${config.PGLITE_DATA_DIR}. ` +
          'Stop it, or use the ops API (/v1/ops/...) against the running server instead.',
      );
    }
    // A server cannot start while this is held. Released below, not at exit: runCli may run inside a
    // longer-lived process (the tests), where a lock left behind would outlive the command.
    releaseLock = acquirePgliteLock(config.PGLITE_DATA_DIR);
  }
  let database: Database | undefined;
  try {
    database = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDataDir: config.PGLITE_DATA_DIR });
    await database.migrate();
    const result = await work(database.db, config);
    return new Exit(result.code ?? 0, result.value, result.human);
  } finally {
    // Only once the database is closed may another process open the directory.
    await database?.close().catch(() => undefined);
    releaseLock?.();
  }
}

export interface CliOutcome {
  code: number;
  /** What the command prints, each ending in a newline; exactly one of the two is non-empty. */
  stdout: string;
  stderr: string;
}

/**
 * The whole CLI, minus the process: reads its configuration from `env`, and returns the exit code and the
 * text instead of writing and exiting, so tests run commands in their own process (bin/cli.ts is the entry).
 */
export async function runCli(argv: string[], env: Record<string, string | undefined> = process.env, live?: Partial<Omit<LiveIo, 'json'>>): Promise<CliOutcome> {
  const json = argv.includes('--json');
  // A long-running command (listen) prints as it goes: to `live.print` when given, else into stdout below.
  const printed: string[] = [];
  const io: LiveIo = { print: live?.print ?? ((line) => void printed.push(line)), signal: live?.signal ?? new AbortController().signal, json };
  let outcome: Exit;
  try {
    outcome = await run(argv, env, io);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // The operator's input (unknown tenant, scope not grantable, …) versus the system failing.
    const operatorError = err instanceof UsageError || (err instanceof AppError && err.status < 500);
    outcome = failure(message, operatorError ? 2 : 1);
  }
  // --json answers on stdout whatever happened; human text goes to stderr when the command failed.
  const text = `${json ? JSON.stringify(outcome.value) : outcome.human}\n`;
  const toStdout = json || outcome.code === 0;
  const before = printed.map((line) => `${line}\n`).join('');
  return { code: outcome.code, stdout: before + (toStdout ? text : ''), stderr: toStdout ? '' : text };
}
