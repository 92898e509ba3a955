import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Context } from '@/server/api/context';
import { embedProcedure } from '@/server/api/procedures';
import { router } from '@/server/api/trpc';
import { AppError } from '@/server/lib/errors';
import * as z from '@/server/lib/zod';
import { type Clinic, createTenantWithKeys, startTestApp, type TestApp } from './helpers/harness';

/*
 * What the public submission endpoints get from embedProcedure, before any exists: a mutation with
 * `meta.idempotencyRequired` refuses a missing Idempotency-Key, and a replay is stored per tenant, mode
 * and embed key (credential = the key's id).
 */
let app: TestApp;
let clinic: Clinic;
let runs = 0;

const testRouter = router({
  submit: embedProcedure
    .meta({ idempotencyRequired: true, successStatus: 201 })
    .input(z.object({ embedKey: z.string(), answer: z.string() }))
    .mutation(({ ctx, input }) => ({ run: ++runs, tenantId: ctx.embed.tenantId, livemode: ctx.embed.livemode, keyId: ctx.embed.keyId, answer: input.answer })),
});

function caller(headers: Record<string, string>) {
  const ctx: Context = {
    services: app.services,
    req: { headers, socket: { remoteAddress: '203.0.113.7' } } as never,
    state: { requestId: 'req_test', method: 'POST', path: '/v1/public/test', rawBody: '{"answer":"a"}', headers: {} },
    transport: 'rest',
  };
  return testRouter.createCaller(ctx);
}

beforeAll(async () => {
  app = await startTestApp();
  clinic = await createTenantWithKeys(app, 'Embed procedure');
});
afterAll(async () => app?.close());

describe('embedProcedure', () => {
  it('refuses a submission without Idempotency-Key (400 idempotency_key_required) and runs nothing', async () => {
    const key = (await app.request('POST', '/v1/embed-keys', { key: clinic.sandboxKey, body: { allowedOrigins: [] } })).body.id;
    const err = await caller({}).submit({ embedKey: key, answer: 'a' }).catch((e: unknown) => e);
    const cause = (err as { cause?: unknown }).cause;
    expect(cause).toBeInstanceOf(AppError);
    expect(cause).toMatchObject({ status: 400, code: 'idempotency_key_required', param: 'Idempotency-Key' });
    expect(runs).toBe(0);
  });

  it('puts the key on ctx.embed and replays a retry, stored under the embed key as credential', async () => {
    const key = (await app.request('POST', '/v1/embed-keys', { key: clinic.sandboxKey, body: { allowedOrigins: [] } })).body.id;
    const headers = { 'idempotency-key': '6c1f2a8e-4b5d-4e0f-9a7b-1c2d3e4f5a6b' };
    const first = await caller(headers).submit({ embedKey: key, answer: 'a' });
    expect(first).toEqual({ run: 1, tenantId: clinic.tenantId, livemode: false, keyId: key, answer: 'a' });
    const again = await caller(headers).submit({ embedKey: key, answer: 'a' });
    expect(again).toEqual(first);
    expect(runs).toBe(1);
    const rows = (await app.services.database.db.execute(sql`select scope, livemode, credential from idempotency_keys where key = ${headers['idempotency-key']}`)) as unknown as {
      rows: { scope: string; livemode: boolean; credential: string }[];
    };
    expect(rows.rows).toEqual([{ scope: clinic.tenantId, livemode: false, credential: key }]);
  });
});
