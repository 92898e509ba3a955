import type { ParseArgsConfig } from 'node:util';
import type { Db } from '@/server/db/types';
import type { Config } from '@/server/lib/config';

/*
 * What a CLI command is, and the kinds of work it hands back: its own module, because both the command table
 * (commands.ts) and the modules whose commands it lists (cert-commands.ts, dev/) need it. Kept in commands.ts,
 * it made an import cycle through every one of them.
 */

/** Bad input from the operator: exit code 2, nothing written. */
export class UsageError extends Error {}

export type Options = Record<string, string | undefined>;
export interface Result {
  value: unknown;
  human: string;
  /** Exit code; 0 unless the command's answer is a "no" (an invalid certificate). */
  code?: number;
}

export type Work = (db: Db, config: Config) => Promise<Result>;
/** Work that needs no database (verifying against a published JWKS): the CLI opens and locks nothing. */
export class Offline {
  constructor(readonly run: () => Promise<Result>) {}
}

/** What a long-running command (listen) writes to as it goes, and the signal that stops it (^C). */
export interface LiveIo {
  print(line: string): void;
  signal: AbortSignal;
  /** --json: each printed line is one JSON document. */
  json: boolean;
}
/** Work that talks to a running server over HTTP and reports as it goes: no database is opened. */
export class Live {
  constructor(readonly run: (io: LiveIo) => Promise<Result>) {}
}

export interface Command {
  summary: string;
  usage: string;
  /** More, shown by `<command> --help` only. */
  help?: string;
  options: NonNullable<ParseArgsConfig['options']>;
  /** How many positional arguments the command takes (none unless set). */
  positionals?: number;
  /** Validates the flags without touching the database and returns the work to do. */
  prepare(o: Options, positionals: string[], env: Record<string, string | undefined>): Work | Offline | Live;
}
