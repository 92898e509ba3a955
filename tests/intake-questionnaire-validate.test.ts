import { createTRPCClient, httpLink } from '@trpc/client';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '@/server/api/root';
import { canonicalHash } from '@/server/lib/canonical';
import { countRows, createUserAndLogin, expectEnvelope, startWithTwoClinics, type Clinic, type TestApp } from './helpers/harness';
import { providerSession } from './helpers/orders-world';
import { sampleQuestionnaire } from './helpers/questionnaires';
import { trpcFailure } from './helpers/trpc';

/*
 * Issue 33, item 9: `POST /v1/intake/questionnaires/validate`, publication's dry run, which the console's
 * questionnaire builder calls to show each problem next to its item. It answers exactly as publication would
 * (200 with the content hash and the version it would take, or 400 naming the item, every problem in
 * `details`), and writes nothing: no version, no event, no stored Idempotency-Key response.
 */

let app: TestApp;
let a: Clinic;
let b: Clinic;

beforeAll(async () => {
  ({ app, a, b } = await startWithTwoClinics());
});
afterAll(async () => app?.close());

const check = (key: string, body: unknown, opts: { idempotencyKey?: string; headers?: Record<string, string> } = {}) =>
  app.request('POST', '/v1/intake/questionnaires/validate', { key, body, ...opts });

/** Rows a dry run could touch, counted before and after: none may change. */
const TABLES = ['questionnaires', 'events', 'idempotency_keys', 'jobs'];
async function written<T>(fn: () => Promise<T>): Promise<{ result: T; changed: string[] }> {
  const before = await Promise.all(TABLES.map((t) => countRows(app, t)));
  const result = await fn();
  const after = await Promise.all(TABLES.map((t) => countRows(app, t)));
  return { result, changed: TABLES.filter((_, i) => before[i] !== after[i]) };
}

describe('a document publication would accept', () => {
  it('answers 200 with its content hash and the version it would take, and writes nothing', async () => {
    const doc = sampleQuestionnaire('dry-new');
    const { result: r, changed } = await written(() => check(a.sandboxKey, doc, { idempotencyKey: randomUUID() }));
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ object: 'questionnaire_check', valid: true, key: 'dry-new', contentHash: canonicalHash(doc), nextVersion: 1, approvedVersion: null, sameAsApproved: false, existingVersion: null });
    expect(r.headers.get('idempotent-replayed')).toBeNull();
    expect(changed).toEqual([]);
    // Nothing was published: the key has no version.
    const drafts = await app.request('GET', '/v1/intake/questionnaires/drafts', { key: a.sandboxKey });
    expect(drafts.status).toBe(200);
    expect(JSON.stringify(drafts.body)).not.toContain('dry-new');
  });

  it('names the next version and says when the document is the version in use, per tenant and mode', async () => {
    const doc = sampleQuestionnaire('dry-versions');
    const first = await app.request('POST', '/v1/intake/questionnaires', { key: a.sandboxKey, body: doc });
    expect(first.status, first.text).toBe(201);
    const dr = await providerSession(app, a.tenantId, ['CA']);
    expect((await app.request('POST', `/v1/intake/questionnaires/${first.body.id}/approve`, { key: dr.token, body: {} })).status).toBe(200);

    const same = await check(a.sandboxKey, doc);
    expect(same.body).toMatchObject({ nextVersion: 2, approvedVersion: 1, sameAsApproved: true, existingVersion: 1, contentHash: first.body.contentHash });
    const changedDoc = { ...doc, title: 'Weight management check, second edition' };
    expect((await check(a.sandboxKey, changedDoc)).body).toMatchObject({ nextVersion: 2, approvedVersion: 1, sameAsApproved: false, existingVersion: null, contentHash: canonicalHash(changedDoc) });
    // A pending version takes a number too, and publishing its very content again would answer with it (decision 45).
    expect((await app.request('POST', '/v1/intake/questionnaires', { key: a.sandboxKey, body: changedDoc })).status).toBe(201);
    expect((await check(a.sandboxKey, doc)).body).toMatchObject({ nextVersion: 3, approvedVersion: 1, sameAsApproved: true, existingVersion: 1 });
    expect((await check(a.sandboxKey, changedDoc)).body).toMatchObject({ nextVersion: 3, approvedVersion: 1, sameAsApproved: false, existingVersion: 2 });
    // Another clinic, or the live mode, knows nothing of this key.
    expect((await check(b.sandboxKey, doc)).body).toMatchObject({ nextVersion: 1, approvedVersion: null, sameAsApproved: false });
    expect((await check(a.liveKey, doc)).body).toMatchObject({ nextVersion: 1, approvedVersion: null });
  });
});

describe('a document publication would refuse', () => {
  it('answers 400 naming the item and its problem, every problem in details, and writes nothing', async () => {
    const doc = sampleQuestionnaire('dry-bad');
    // items.1 shows only after a later item; items.4 becomes a choice without options (so the conditions on it
    // no longer fit); rule 0 names no item.
    doc.items[1] = { ...doc.items[1], enableWhen: { q: 'mtc', op: 'eq', value: true } } as (typeof doc.items)[number];
    doc.items[4] = { linkId: 'meds', text: 'Which insulin?', type: 'choice', required: true } as (typeof doc.items)[number];
    doc.rules[0] = { ...doc.rules[0], when: { q: 'age(birthday)', op: 'lt', value: 18 } };
    const { result: r, changed } = await written(() => check(a.sandboxKey, doc, { idempotencyKey: randomUUID() }));
    expectEnvelope(r, 400, 'validation_error', 'invalid_questionnaire');
    // Item shapes are checked before references: the first problem is the choice without options.
    expect(r.body.error.param).toBe('items.4.options');
    expect(r.body.error.message).toMatch(/^Invalid questionnaire: item 'meds' \(items\.4\.options\)/);
    expect(r.body.error.message).toMatch(/and 4 more problems; see details/);
    const details = r.body.error.details as { param: string; message: string }[];
    expect(details.map((d) => d.param)).toEqual(['items.4.options', 'items.1.enableWhen.q', 'items.5.enableWhen.value', 'rules.0.when.q', 'rules.3.when.value']);
    expect(details.find((d) => d.param === 'items.4.options')!.message).toMatch(/"meds" is choice and needs options/);
    expect(details.find((d) => d.param === 'items.1.enableWhen.q')!.message).toMatch(/^item 'height_cm' .*earlier items; "mtc"/);
    expect(details.find((d) => d.param === 'rules.0.when.q')!.message).toMatch(/"birthday"/);
    expect(changed).toEqual([]);
  });

  it('answers exactly what publication answers for the same document', async () => {
    const doc = { ...sampleQuestionnaire('dry-same'), items: [{ linkId: 'dup', text: 'A', type: 'boolean', required: true }, { linkId: 'dup', text: 'B', type: 'boolean', required: true }], rules: [] };
    const dry = await check(a.sandboxKey, doc);
    const before = await countRows(app, 'questionnaires');
    const real = await app.request('POST', '/v1/intake/questionnaires', { key: a.sandboxKey, body: doc });
    expect(await countRows(app, 'questionnaires')).toBe(before);
    expectEnvelope(dry, 400, 'validation_error', 'invalid_questionnaire');
    expectEnvelope(real, 400, 'validation_error', 'invalid_questionnaire');
    for (const field of ['param', 'message', 'details'] as const) expect(dry.body.error[field]).toEqual(real.body.error[field]);
    expect(dry.body.error.param).toBe('items.1.linkId');
  });

  it('refuses a protocol of another tenant or mode with 400 unknown_protocol, like publication', async () => {
    const product = await app.request('POST', '/v1/products', { key: b.sandboxKey, body: { sku: 'SKU-DRY', name: 'Pen', form: 'injection', strength: '1 mg', rxRequired: true, active: true } });
    const protocol = await app.request('POST', '/v1/protocols', { key: b.sandboxKey, body: { name: 'Theirs', active: true, items: [{ productId: product.body.id, quantity: 1, sig: 'Weekly', refills: 0 }] } });
    expect(protocol.status, protocol.text).toBe(201);
    expect((await check(b.sandboxKey, sampleQuestionnaire('dry-protocol', { protocolId: protocol.body.id }))).status).toBe(200);
    const { result: r, changed } = await written(() => check(a.sandboxKey, sampleQuestionnaire('dry-protocol', { protocolId: protocol.body.id })));
    expectEnvelope(r, 400, 'validation_error', 'unknown_protocol');
    expect(r.body.error.param).toBe('protocolId');
    expect(changed).toEqual([]);
  });

  it('refuses a body that is not a document, and never answers 5xx', async () => {
    for (const body of [[], 'a questionnaire', 42, null, {}, { key: 'x', items: 'none' }, { key: 'Bad Key', title: 't', items: [], rules: [] }]) {
      const r = await check(a.sandboxKey, body);
      expect(r.status, `${JSON.stringify(body)} → ${r.text}`).toBe(400);
      expect(r.body.error.type).toBe('validation_error');
    }
    const raw = await app.request('POST', '/v1/intake/questionnaires/validate', { key: a.sandboxKey, rawBody: '{"key":', headers: { 'content-type': 'application/json' } });
    expect(raw.status).toBe(400);
  });
});

describe('who may check', () => {
  it('needs catalog.manage or intake.review: a restricted key without them gets 403', async () => {
    const restricted = await app.request('POST', '/v1/developer/keys', { key: a.sandboxKey, body: { name: 'orders only', keyType: 'restricted', scopes: ['orders.read'] } });
    expect(restricted.status, restricted.text).toBe(201);
    expectEnvelope(await check(restricted.body.key, sampleQuestionnaire('dry-scope')), 403, 'permission_error');
    expectEnvelope(await check('', sampleQuestionnaire('dry-scope')), 401, 'authentication_error');
  });

  it('serves the console over /api/trpc for an admin, with the same problems in the error data', async () => {
    const admin = await createUserAndLogin(app, a.tenantId, { email: `admin-${randomUUID()}@clinic.test`, role: 'admin' });
    const trpc = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/api/trpc`, headers: { authorization: `Bearer ${admin.token}` } })] });
    const ok = await trpc.intake.validateQuestionnaire.mutate(sampleQuestionnaire('dry-console'));
    expect(ok).toMatchObject({ valid: true, key: 'dry-console', nextVersion: 1 });
    const bad = sampleQuestionnaire('dry-console');
    bad.rules[2] = { ...bad.rules[2], effect: 'ban' };
    const before = await countRows(app, 'questionnaires');
    const failure = await trpcFailure(trpc.intake.validateQuestionnaire.mutate(bad));
    expect(failure.data).toMatchObject({ code: 'invalid_questionnaire', param: 'rules.2.effect', httpStatus: 400 });
    expect(failure.data.details).toEqual([expect.objectContaining({ param: 'rules.2.effect' })]);
    expect(await countRows(app, 'questionnaires')).toBe(before);
  });
});
