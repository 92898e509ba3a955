import { scrubText } from './log-scrub';

type Chained = Error & { cause?: unknown; code?: unknown; severity?: unknown; query?: unknown; params?: unknown; type?: unknown };

const SQLSTATE = /^[0-9A-Z]{5}$/;

function chain(e: unknown): Chained[] {
  const out: Chained[] = [];
  for (let cur = e as Chained | undefined; cur && typeof cur === 'object' && out.length < 5; cur = cur.cause as Chained | undefined) out.push(cur);
  return out;
}

/**
 * "insert patients", "update orders": the statement's verb and the tables it writes (each one, since a single
 * statement may write several through CTEs: "insert patient_access_log, patients"), else the first table it
 * reads; never its values.
 */
export function statementLabel(sqlText: string): string {
  const verb = /\b(insert|update|delete|select)\b/i.exec(sqlText)?.[1]?.toLowerCase() ?? 'statement';
  // `on conflict … do update set` and `for update` name no table.
  const written = [...sqlText.matchAll(/\b(?:insert\s+into|(?<!\b(?:do|for|no\s+key)\s+)update|delete\s+from)\s+"?([\w.]+)"?/gi)].map((m) => m[1]);
  const tables = written.length ? [...new Set(written)].slice(0, 4) : [/\bfrom\s+"?([\w.]+)"?/i.exec(sqlText)?.[1]].filter(Boolean);
  return tables.length ? `${verb} ${tables.join(', ')}` : verb;
}

/**
 * What the log may say about a thrown value. A database failure is its statement and SQLSTATE only: the
 * driver's message, detail and parameters can hold any value of the row (PHI included). Anything else
 * keeps its name, a scrubbed message and the stack's frames.
 */
export function errorForLog(e: unknown): Record<string, unknown> {
  const links = chain(e);
  const query = links.find((l) => typeof l.query === 'string' && Array.isArray(l.params));
  const driver = links.find((l) => typeof l.code === 'string' && SQLSTATE.test(l.code) && (l.severity !== undefined || query));
  if (query || driver) {
    return { kind: 'database', statement: typeof query?.query === 'string' ? statementLabel(query.query) : 'unknown', code: driver?.code ?? 'unknown' };
  }
  if (!(e instanceof Error)) return { kind: typeof e, message: scrubText(String(e)) };
  const frames = e.stack?.split('\n').filter((line) => /^\s+at /.test(line)).join('\n');
  return { kind: e.name, message: scrubText(e.message), ...(links[1] ? { cause: errorForLog(links[1]) } : {}), stack: frames };
}

/** One line for places that store an error's text (a job's last error): the same rules as the log. */
export function errorText(e: unknown): string {
  const d = errorForLog(e);
  return d.kind === 'database' ? `database error ${String(d.code)} in ${String(d.statement)}` : `${String(d.kind)}: ${String(d.message ?? '')}`;
}
