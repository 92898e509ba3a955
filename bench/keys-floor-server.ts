/**
 * The floors of the keys read (issue 35, item 4): `GET /v1/developer/keys` served on the server's own
 * database by a process that does only what that read needs, so the keys scenario can show, in the same run,
 * how much of the project's cost is the database read, how much the settled stack, and how much the project.
 *
 *   FLOOR=sql    bare `node:http` + `pg`: the bearer's SHA-256 looked up in a map filled once (the project
 *                caches its keys the same way), the project's list statement as a named prepared statement,
 *                the rows shaped as the API's `ApiKeyPublic`, JSON. No validation, no framework.
 *   FLOOR=stack  the same read on the settled stack alone: a tRPC procedure with the project's input and
 *                output schemas (zod) and one middleware level resolving the key, called through
 *                `createCaller`, its statement prepared through drizzle's `.prepare()`. No project code on
 *                the path: no route table, headers, metrics, idempotency or scoped data access.
 *
 * Both render the statement with drizzle from the project's schema, as the project's scoped list does for
 * a live key (its tenant's keys of both modes, newest first). Env: PORT, DATABASE_URL, FLOOR, KEY (the
 * plaintext key the bench sends). Anything but that GET is a 404.
 */
import http from 'node:http';
import { desc, eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { initTRPC, TRPCError } from '@trpc/server';
import { apiKeys } from '@/db/schema';
import { ZListApiKeysRequest, ZListApiKeysResponse } from '@/server/api/routers/developer/list-api-keys.types';
import { toPublicKey, type ApiKeyRow } from '@/server/domain/developer/api-keys';
import { sha256Hex } from '@/server/lib/crypto';

const PATH = '/v1/developer/keys';
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const db = drizzle(pool);
const listQuery = db
  .select()
  .from(apiKeys)
  .where(eq(apiKeys.tenantId, sql.placeholder('tenant')))
  .orderBy(desc(apiKeys.id));

/** The bench key's tenant, read once by its hash (the project's key cache holds the same). */
async function principals(): Promise<Map<string, { tenantId: string }>> {
  const hash = sha256Hex(process.env.KEY ?? '');
  const { rows } = await pool.query<{ tenant_id: string }>('select tenant_id from api_keys where hash = $1', [hash]);
  if (!rows[0]) throw new Error('keys floor: KEY is not a key of this database');
  return new Map([[hash, { tenantId: rows[0].tenant_id }]]);
}

type Read = (authorization: string | undefined) => Promise<unknown>;

/** bare node:http + pg */
function sqlFloor(known: Map<string, { tenantId: string }>): Read {
  const text = listQuery.toSQL().sql;
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  return async (authorization) => {
    const principal = known.get(sha256Hex(authorization?.slice('Bearer '.length) ?? ''));
    if (!principal) return null;
    const { rows } = await pool.query({ name: 'floor_keys', text, values: [principal.tenantId] });
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      mode: r.livemode ? 'live' : 'sandbox',
      keyType: r.key_type,
      prefix: r.prefix,
      last4: r.last4,
      scopes: r.scopes,
      lastUsedAt: iso(r.last_used_at),
      expiresAt: iso(r.expires_at),
      revokedAt: iso(r.revoked_at),
      createdAt: r.created_at.toISOString(),
      createdBy: r.created_by_type ? { type: r.created_by_type, id: r.created_by } : null,
    }));
  };
}

/** tRPC + zod + drizzle + pg, nothing of the project's request path */
function stackFloor(known: Map<string, { tenantId: string }>): Read {
  const t = initTRPC.context<{ authorization: string | undefined }>().create();
  const prepared = listQuery.prepare('floor_keys_stack');
  const keyed = t.procedure.use(({ ctx, next }) => {
    const principal = known.get(sha256Hex(ctx.authorization?.slice('Bearer '.length) ?? ''));
    if (!principal) throw new TRPCError({ code: 'UNAUTHORIZED' });
    return next({ ctx: { principal } });
  });
  const router = t.router({
    listApiKeys: keyed
      .input(ZListApiKeysRequest)
      .output(ZListApiKeysResponse)
      .query(async ({ ctx }) => ((await prepared.execute({ tenant: ctx.principal.tenantId })) as ApiKeyRow[]).map(toPublicKey)),
  });
  const createCaller = t.createCallerFactory(router);
  return (authorization) => createCaller({ authorization }).listApiKeys({}).catch(() => null);
}

async function main() {
  const known = await principals();
  const read = process.env.FLOOR === 'stack' ? stackFloor(known) : sqlFloor(known);
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url !== PATH && req.url !== '/healthz')) {
      res.statusCode = 404;
      res.end();
      return;
    }
    if (req.url === '/healthz') {
      res.end('ok');
      return;
    }
    read(req.headers.authorization).then(
      (body) => {
        res.statusCode = body === null ? 401 : 200;
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify(body ?? { error: 'unauthenticated' }));
      },
      () => {
        res.statusCode = 500;
        res.end();
      },
    );
  });
  server.keepAliveTimeout = 65_000; // as server/http/main.ts
  server.listen(Number(process.env.PORT), '127.0.0.1');
  process.once('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
}

void main();
