import pino, { type DestinationStream } from 'pino';
import { errorForLog } from './log-error';
import { scrubText, scrubValues } from './log-scrub';

// Patient fields and credentials are redacted wherever they appear in a logged object, so a careless log
// line cannot leak PHI or a way in; strings are scrubbed as well (log-scrub.ts), since keys cannot see into them.
const REDACTED_KEYS = [
  'name', 'firstName', 'lastName', 'email', 'dateOfBirth', 'dob', 'phone', 'address', 'answers', 'patient', 'allergies', 'medications',
  'password', 'authorization', 'token', 'refreshToken', 'accessToken', 'link', 'secret', 'params',
];
const PHI_PATHS = REDACTED_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`]);

const stdout = pino.destination(1);
let sink: DestinationStream = stdout;

export const logger = pino(
  {
    level: process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'silent' : 'info'),
    redact: { paths: PHI_PATHS, censor: '[redacted]' },
    base: undefined,
    // Errors, under any key, are logged through errorForLog: a database failure as its statement and SQLSTATE only.
    formatters: { log: (record) => scrubValues(record, errorForLog) as Record<string, unknown> },
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((a) => (typeof a === 'string' ? scrubText(a) : a)) as Parameters<typeof method>);
      },
    },
  },
  { write: (line: string) => sink.write(line) },
);

/**
 * Test seam: sends the log to `stream` at `level` until the returned function is called. Only code can
 * call it (no setting reaches it), so no deployment can turn it on; tests use it to read what was logged.
 */
export function redirectLogs(stream: DestinationStream, level: pino.LevelWithSilent = 'trace'): () => void {
  const previous = { sink, level: logger.level };
  sink = stream;
  logger.level = level;
  return () => {
    sink = previous.sink;
    logger.level = previous.level;
  };
}
