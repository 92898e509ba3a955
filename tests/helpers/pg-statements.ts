import pg from 'pg';

/**
 * Hands every statement node-postgres sends, in this process, to `record` (its text, or a prepared statement's
 * name when it is sent by name only) until the returned function is called: what a request costs in round trips.
 */
export function captureStatements(record: (statement: string) => void): () => void {
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0] as string | { text?: string; name?: string };
    record(typeof first === 'string' ? first : (first.text ?? first.name ?? '?'));
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  return () => {
    pg.Client.prototype.query = original;
  };
}
