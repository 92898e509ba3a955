/**
 * The flows stack floor (issue 35): the same-SQL reference's runtime (bench/same-sql/runtime.ts: the same
 * statements, transactions, engine and certificate) on the settled stack alone, so the flows scenario can
 * show, in the same run, how much of the project's cost over bare `node:http` + `pg` the stack takes by
 * itself. Each route is a tRPC procedure with the project's own input and output schemas and one middleware
 * level resolving the embed key, called through `createCaller`; each statement goes through drizzle as a
 * named prepared query (the session's `prepareQuery`, as the project's `namedStatement` sends it) and the
 * submit through drizzle's `transaction`. No project code on the path: no route table, headers, metrics,
 * rate limits, origin checks, idempotency layer, events catalog or scoped data access.
 *
 * Env: PORT, DATABASE_URL. Serves only what the bench sends; anything else is a 404.
 */
import http from 'node:http';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { initTRPC } from '@trpc/server';
import type { Queryable } from '@/server/db/types';
import { ZCreateFlowSessionRequest, ZCreateFlowSessionResponse } from '@/server/api/routers/public-flows/create-flow-session.types';
import { ZSaveFlowStepRequest, ZSaveFlowStepResponse } from '@/server/api/routers/public-flows/save-flow-step.types';
import { ZSubmitFlowSessionRequest, ZSubmitFlowSessionResponse } from '@/server/api/routers/public-flows/submit-flow-session.types';
import { flowsRuntime, RUN_ROUTE, serveJson, type Run } from './same-sql/runtime';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const db = drizzle(pool);
const on =
  (q: Queryable): Run =>
  (id, params, text) =>
    q._.session.prepareQuery({ sql: text, params }, undefined, `floor_${id}`, false).execute() as ReturnType<Run>;

const flows = flowsRuntime({
  run: on(db),
  transaction: (fn) => db.transaction((tx) => fn(on(tx))),
  rows: async (text, params) => (await pool.query(text, params)).rows,
});

interface Context {
  key: string;
  raw: string;
  path: string;
  idempotencyKey: string;
}
const t = initTRPC.context<Context>().create();
const embedded = t.procedure.use(async ({ ctx, next }) => next({ ctx: { world: await flows.worldOf(ctx.key) } }));
const router = t.router({
  createSession: embedded
    .input(ZCreateFlowSessionRequest)
    .output(ZCreateFlowSessionResponse)
    .mutation(({ ctx }) => flows.createSession(ctx.key, ctx.world)),
  saveStep: embedded
    .input(ZSaveFlowStepRequest)
    .output(ZSaveFlowStepResponse)
    .mutation(({ ctx, input }) => flows.saveStep(ctx.key, ctx.world, input.id, input)),
  submit: embedded
    .input(ZSubmitFlowSessionRequest)
    .output(ZSubmitFlowSessionResponse)
    .mutation(({ ctx, input }) => flows.submit(ctx.key, ctx.world, input.id, ctx.raw, ctx.path, ctx.idempotencyKey, input.patient)),
});
const createCaller = t.createCallerFactory(router);

async function handle(req: http.IncomingMessage, raw: string) {
  if (req.url === '/healthz') return { status: 200, body: { ok: true } };
  const m = req.method === 'POST' ? RUN_ROUTE.exec(req.url ?? '') : null;
  if (!m) return { status: 404, body: { error: 'not found' } };
  const [, key, session, action] = m;
  const caller = createCaller({ key, raw, path: req.url!, idempotencyKey: String(req.headers['idempotency-key']) });
  const input = { ...JSON.parse(raw || '{}'), embedKey: key, ...(session ? { id: session } : {}) };
  if (!session) return { status: 201, body: await caller.createSession(input) };
  if (action === 'steps') return { status: 200, body: await caller.saveStep(input) };
  return { status: 200, body: await caller.submit(input) };
}

const server = http.createServer(serveJson(handle));
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
