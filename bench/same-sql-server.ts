/**
 * The same-SQL reference of the flows bench (issue 35, item 2): bare `node:http` + `pg`, serving the three
 * public runtime routes a patient run uses with exactly the statements the project sends, in the same
 * transactions (bench/same-sql/statements.ts), each a named prepared statement. No validation, no
 * framework, no middleware: what remains is the work any server of this contract must do — parse the body,
 * run the questionnaire engine on submit, sign an Ed25519 certificate, run the SQL, write JSON
 * (bench/same-sql/runtime.ts). The flows scenario compares the project's runs/s and CPU per run with this
 * server's in the same run.
 *
 * Env: PORT, DATABASE_URL. Serves only what the bench sends; anything else is a 404.
 */
import http from 'node:http';
import pg from 'pg';
import { flowsRuntime, RUN_ROUTE, serveJson, type Run } from './same-sql/runtime';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const on =
  (q: pg.Pool | pg.PoolClient): Run =>
  (id, params, text) =>
    q.query({ name: `ref_${id}`, text, values: params });

const flows = flowsRuntime({
  run: on(pool),
  async transaction(fn) {
    const c = await pool.connect();
    try {
      await c.query('begin');
      const out = await fn(on(c));
      await c.query('commit');
      return out;
    } catch (err) {
      await c.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      c.release();
    }
  },
  rows: async (text, params) => (await pool.query(text, params)).rows,
});

async function handle(req: http.IncomingMessage, raw: string) {
  if (req.url === '/healthz') return { status: 200, body: { ok: true } };
  const m = req.method === 'POST' ? RUN_ROUTE.exec(req.url ?? '') : null;
  if (!m) return { status: 404, body: { error: 'not found' } };
  const [, key, session, action] = m;
  const w = await flows.worldOf(key);
  const body = JSON.parse(raw || '{}');
  if (!session) return { status: 201, body: await flows.createSession(key, w) };
  if (action === 'steps') return { status: 200, body: await flows.saveStep(key, w, session, body) };
  return { status: 200, body: await flows.submit(key, w, session, raw, req.url!, String(req.headers['idempotency-key']), body.patient) };
}

const server = http.createServer(serveJson(handle));
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
