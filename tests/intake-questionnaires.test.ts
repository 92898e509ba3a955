import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { canonicalHash } from '@/server/lib/canonical';
import { countRows, createUserAndLogin, expectEnvelope, OPS_KEY, startWithTwoClinics, VALID_NPI, type Clinic, type TestApp } from './helpers/harness';
import { providerSession } from './helpers/orders-world';
import { freshTotp } from './helpers/totp';
import { sampleQuestionnaire } from './helpers/questionnaires';

let app: TestApp;
let a: Clinic;
let b: Clinic;
let drA: Awaited<ReturnType<typeof providerSession>>;
let drB: Awaited<ReturnType<typeof providerSession>>;
const live = { 'x-mode': 'live' };

beforeAll(async () => {
  ({ app, a, b } = await startWithTwoClinics());
  drA = await providerSession(app, a.tenantId, ['CA']);
  drB = await providerSession(app, b.tenantId, ['CA']);
});
afterAll(async () => app?.close());

const publish = (key: string, body: unknown, opts: { headers?: Record<string, string>; idempotencyKey?: string } = {}) =>
  app.request('POST', '/v1/intake/questionnaires', { key, body, ...opts });
const approve = (token: string, id: string, body: Record<string, unknown> = {}, headers?: Record<string, string>) =>
  app.request('POST', `/v1/intake/questionnaires/${id}/approve`, { key: token, body, headers });

async function protocolOf(key: string) {
  const product = await app.request('POST', '/v1/products', { key, body: { sku: `SKU-${randomUUID().slice(0, 8)}`, name: 'Semaglutide pen', form: 'injection', strength: '0.25 mg', rxRequired: true, active: true } });
  expect(product.status).toBe(201);
  const protocol = await app.request('POST', '/v1/protocols', { key, body: { name: 'GLP-1 start', active: true, items: [{ productId: product.body.id, quantity: 1, sig: 'Inject weekly', refills: 0 }] } });
  expect(protocol.status).toBe(201);
  return protocol.body.id as string;
}

describe('publishing a questionnaire version', () => {
  it('stores the next version of the key as pending, with its content hash, and increments per key', async () => {
    const doc = sampleQuestionnaire('pub-versions');
    const first = await publish(a.sandboxKey, doc);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      object: 'questionnaire', livemode: false, key: 'pub-versions', version: 1, status: 'pending', origin: 'staff', title: doc.title,
      approvedBy: null, approvedAt: null, approvalNote: null, retiredAt: null, contentHash: canonicalHash(doc),
    });
    expect(first.body.id).toMatch(/^iq_/);
    expect(first.body.createdBy).toMatch(/^key_/);
    expect(first.body.document).toEqual(doc);
    const second = await publish(a.sandboxKey, { ...doc, title: 'Weight management check v2' });
    expect(second.body).toMatchObject({ version: 2, status: 'pending' });
    // Versions are per key and per tenant and mode.
    expect((await publish(a.sandboxKey, sampleQuestionnaire('pub-other'))).body.version).toBe(1);
    expect((await publish(b.sandboxKey, doc)).body.version).toBe(1);
    expect((await publish(a.liveKey, doc)).body).toMatchObject({ version: 1, livemode: true });
  });

  it('takes concurrent publications of one key as distinct versions', async () => {
    const doc = sampleQuestionnaire('pub-race');
    const answers = await Promise.all([1, 2, 3, 4].map((n) => publish(a.sandboxKey, { ...doc, title: `Weight management check (${n})` })));
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(answers.map((r) => r.body.version).sort()).toEqual([1, 2, 3, 4]);
  });

  it('keeps a protocol of its own tenant and mode, and refuses any other with 400', async () => {
    const mine = await protocolOf(a.sandboxKey);
    const ok = await publish(a.sandboxKey, sampleQuestionnaire('pub-protocol', { protocolId: mine }));
    expect(ok.status).toBe(201);
    expect(ok.body.document.protocolId).toBe(mine);
    const before = await countRows(app, 'questionnaires');
    for (const [key, protocolId] of [
      [b.sandboxKey, mine],
      [a.liveKey, mine],
      [a.sandboxKey, 'prt_01h2xcejqtf2nbrexx3vqjhp41'],
    ]) {
      const r = await publish(key, sampleQuestionnaire('pub-protocol', { protocolId }));
      expectEnvelope(r, 400, 'validation_error', 'unknown_protocol');
      expect(r.body.error.param).toBe('protocolId');
    }
    expect(await countRows(app, 'questionnaires')).toBe(before);
  });

  it('refuses bad documents with 400, param naming the problem and the message naming the item, saving nothing', async () => {
    const before = await countRows(app, 'questionnaires');
    const good = sampleQuestionnaire('pub-bad');
    const badEnable = structuredClone(good) as { items: Record<string, unknown>[] };
    badEnable.items[5].enableWhen = { q: 'meds', op: 'resembles', value: true };
    const r1 = await publish(a.sandboxKey, badEnable);
    expectEnvelope(r1, 400, 'validation_error');
    expect(r1.body.error.param).toMatch(/^items\.5\.enableWhen/);
    expect(r1.body.error.message).toContain("'insulin_dose'");
    expect(r1.body.error.details.length).toBeGreaterThanOrEqual(1);

    const badType = structuredClone(good) as { items: Record<string, unknown>[] };
    badType.items[2].type = 'number';
    const r2 = await publish(a.sandboxKey, badType);
    expectEnvelope(r2, 400, 'validation_error');
    expect(r2.body.error.param).toBe('items.2.type');
    expect(r2.body.error.message).toContain("'weight_kg'");

    const cases: [unknown, string][] = [
      [{ ...good, items: [] }, 'items'],
      [{ ...good, key: 'Not A Key!' }, 'key'],
      [{ title: 'No key', items: good.items, rules: [] }, 'key'],
      [{ ...good, rules: [{ ...good.rules[0], effect: 'approve' }] }, 'rules.0.effect'],
      // A NUL cannot be stored in jsonb: refused like any bad value, never a 500.
      [{ ...good, title: 'Weight\u0000check' }, 'title'],
    ];
    for (const [body, param] of cases) {
      const r = await publish(a.sandboxKey, body);
      expectEnvelope(r, 400, 'validation_error');
      expect(r.body.error.param).toBe(param);
    }
    // A document cannot carry its own approval or state: the schema is strict.
    const approved = await publish(a.sandboxKey, { ...good, status: 'approved', approvedBy: 'usr_x' });
    expectEnvelope(approved, 400, 'validation_error');
    expect(approved.body.error.message).toMatch(/status|approvedBy/);
    expectEnvelope(await app.request('POST', '/v1/intake/questionnaires', { key: a.sandboxKey, rawBody: '[1,2]', headers: { 'content-type': 'application/json' } }), 400, 'validation_error');
    expect(await countRows(app, 'questionnaires')).toBe(before);
  });

  it('replays an Idempotency-Key publication instead of creating another version', async () => {
    const idem = randomUUID();
    const doc = sampleQuestionnaire('pub-idem');
    const first = await publish(a.sandboxKey, doc, { idempotencyKey: idem });
    const again = await publish(a.sandboxKey, doc, { idempotencyKey: idem });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expect((await publish(a.sandboxKey, { ...doc, title: 'Weight management check (2)' })).body.version).toBe(2);
  });

  it('needs catalog.manage or intake.review', async () => {
    const dev = await createUserAndLogin(app, a.tenantId, { email: `dev-${randomUUID()}@clinic.test`, role: 'developer' });
    expectEnvelope(await publish(dev.token, sampleQuestionnaire('pub-scope')), 403, 'permission_error', 'missing_scope');
    expectEnvelope(await app.request('GET', '/v1/intake/questionnaires', { key: dev.token }), 403, 'permission_error', 'missing_scope');
    // A provider may publish (and read) too: a version is inert until approved.
    expect((await publish(drA.token, sampleQuestionnaire('pub-scope'))).status).toBe(201);
    expectEnvelope(await publish(OPS_KEY, sampleQuestionnaire('pub-scope')), 403, 'permission_error');
  });
});

describe('approval by a provider', () => {
  it('approves, records approver, note and hash, retires the previous version, in one step', async () => {
    const doc = sampleQuestionnaire('appr-flow');
    const v1 = (await publish(a.sandboxKey, doc)).body;
    const ok = await approve(drA.token, v1.id, { note: 'Reviewed against our GLP-1 policy', contentHash: v1.contentHash });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: v1.id, status: 'approved', approvedBy: drA.id, approvalNote: 'Reviewed against our GLP-1 policy', contentHash: canonicalHash(doc), retiredAt: null });
    expect(Date.parse(ok.body.approvedAt)).toBeGreaterThan(0);

    const v2 = (await publish(a.sandboxKey, { ...doc, title: 'Weight management check (2)' })).body;
    const v3 = (await publish(a.sandboxKey, { ...doc, title: 'Weight management check (3)' })).body;
    expect((await app.request('GET', '/v1/intake/questionnaires/appr-flow', { key: a.sandboxKey })).body.version).toBe(1);
    expect((await approve(drA.token, v2.id)).body).toMatchObject({ status: 'approved', approvalNote: null });

    const current = await app.request('GET', '/v1/intake/questionnaires/appr-flow', { key: a.sandboxKey });
    expect(current.body).toMatchObject({ id: v2.id, version: 2, status: 'approved' });
    const old = await app.request('GET', '/v1/intake/questionnaires/appr-flow?version=1', { key: a.sandboxKey });
    expect(old.body).toMatchObject({ id: v1.id, status: 'retired', approvedBy: drA.id });
    expect(Date.parse(old.body.retiredAt)).toBeGreaterThan(0);
    // A version never approved is not readable by key and version.
    expectEnvelope(await app.request('GET', '/v1/intake/questionnaires/appr-flow?version=3', { key: a.sandboxKey }), 404, 'not_found');
    expectEnvelope(await app.request('GET', '/v1/intake/questionnaires/appr-flow?version=9', { key: a.sandboxKey }), 404, 'not_found');

    // Once approved or retired, never again; and an older pending version cannot replace a newer approved one.
    expectEnvelope(await approve(drA.token, v2.id), 409, 'conflict', 'questionnaire_not_pending');
    expectEnvelope(await approve(drA.token, v1.id), 409, 'conflict', 'questionnaire_not_pending');
    const v4 = (await publish(a.sandboxKey, { ...doc, title: 'Weight management check (4)' })).body;
    expect((await approve(drA.token, v4.id)).status).toBe(200);
    // v3 was still pending when v4 was approved: superseded (DESIGN decision 45), never approvable.
    const refused = await approve(drA.token, v3.id);
    expectEnvelope(refused, 409, 'conflict', 'questionnaire_superseded');
    expect(refused.body.error.message).toContain('version 4 was approved');

    const list = (await app.request('GET', '/v1/intake/questionnaires', { key: a.sandboxKey })).body as { key: string; version: number }[];
    expect(list.filter((q) => q.key === 'appr-flow')).toEqual([expect.objectContaining({ version: 4, status: 'approved' })]);
    const drafts = (await app.request('GET', '/v1/intake/questionnaires/drafts', { key: a.sandboxKey })).body as { key: string; version: number; status: string }[];
    expect(drafts.filter((q) => q.key === 'appr-flow')).toEqual([]);
  });

  it('binds the approval to the reviewed content: a different contentHash is 409 and changes nothing', async () => {
    const v = (await publish(a.sandboxKey, sampleQuestionnaire('appr-hash'))).body;
    const r = await approve(drA.token, v.id, { contentHash: 'a'.repeat(64) });
    expectEnvelope(r, 409, 'conflict', 'content_hash_mismatch');
    expectEnvelope(await approve(drA.token, v.id, { contentHash: 'not-a-hash' }), 400, 'validation_error');
    const drafts = (await app.request('GET', '/v1/intake/questionnaires/drafts', { key: a.sandboxKey })).body as { id: string; status: string }[];
    expect(drafts.find((d) => d.id === v.id)?.status).toBe('pending');
  });

  it('is refused with 403 to a secret key, an admin, an owner, ops and a provider without a verified NPI or MFA', async () => {
    const v = (await publish(a.sandboxKey, sampleQuestionnaire('appr-403'))).body;
    const admin = await createUserAndLogin(app, a.tenantId, { email: `admin-${randomUUID()}@clinic.test`, role: 'admin' });
    const owner = await createUserAndLogin(app, a.tenantId, { email: `owner-${randomUUID()}@clinic.test`, role: 'owner' });
    const unverified = await createUserAndLogin(app, a.tenantId, { email: `dr-nv-${randomUUID()}@clinic.test`, role: 'provider', npi: VALID_NPI, npiVerified: false, licensedStates: ['CA'] });
    const enroll = await app.request('POST', '/v1/auth/mfa/enroll', { key: unverified.token, body: {} });
    expect((await app.request('POST', '/v1/auth/mfa/verify', { key: unverified.token, body: { code: await freshTotp(enroll.body.secret) } })).status).toBe(200);
    const noMfa = await createUserAndLogin(app, a.tenantId, { email: `dr-nomfa-${randomUUID()}@clinic.test`, role: 'provider', npi: VALID_NPI, npiVerified: true, licensedStates: ['CA'] });
    // The secret key holds every scope a key can hold; it may still never approve.
    const restricted = await app.request('POST', '/v1/developer/keys', { key: a.sandboxKey, body: { name: 'all', mode: 'sandbox', keyType: 'restricted', scopes: ['catalog.manage', 'orders.write'] } });
    const cases: [string, string | undefined][] = [
      ['secret key', a.sandboxKey],
      ['restricted key', restricted.body.key],
      ['admin', admin.token],
      ['owner', owner.token],
      ['ops', OPS_KEY],
      ['provider without a verified NPI', unverified.token],
      ['provider without MFA', noMfa.token],
    ];
    for (const [who, token] of cases) {
      const r = await approve(token!, v.id, { note: who });
      expect(r.status, who).toBe(403);
      expectEnvelope(r, 403, 'permission_error');
    }
    expectEnvelope(await approve(unverified.token, v.id), 403, 'permission_error', 'npi_not_verified');
    const still = (await app.request('GET', '/v1/intake/questionnaires/drafts', { key: a.sandboxKey })).body as { id: string; status: string }[];
    expect(still.find((d) => d.id === v.id)?.status).toBe('pending');
  });

  it('needs no license in a particular state', async () => {
    const elsewhere = await providerSession(app, a.tenantId, ['WA']);
    const v = (await publish(a.sandboxKey, sampleQuestionnaire('appr-any-state'))).body;
    expect((await approve(elsewhere.token, v.id)).status).toBe(200);
  });

  it("answers 404 for an unknown id, another tenant's and the other mode's", async () => {
    const v = (await publish(a.sandboxKey, sampleQuestionnaire('appr-404'))).body;
    const liveV = (await publish(a.liveKey, sampleQuestionnaire('appr-404'))).body;
    expectEnvelope(await approve(drB.token, v.id), 404, 'not_found');
    expectEnvelope(await approve(drA.token, v.id, {}, live), 404, 'not_found');
    expectEnvelope(await approve(drA.token, liveV.id), 404, 'not_found');
    expectEnvelope(await approve(drA.token, 'iq_01h2xcejqtf2nbrexx3vqjhp41'), 404, 'not_found');
    // In its own mode it approves.
    expect((await approve(drA.token, liveV.id, {}, live)).body).toMatchObject({ status: 'approved', livemode: true });
  });
});

describe('reading questionnaires', () => {
  it('lists approved versions per key and pages with starting_after; drafts newest first; other tenants and modes see none', async () => {
    const ids: string[] = [];
    for (const key of ['read-a', 'read-b', 'read-c']) {
      const v = (await publish(b.sandboxKey, sampleQuestionnaire(key))).body;
      await approve(drB.token, v.id);
      ids.push(v.id);
    }
    const pending = (await publish(b.sandboxKey, sampleQuestionnaire('read-pending'))).body;
    const all = (await app.request('GET', '/v1/intake/questionnaires', { key: b.sandboxKey })).body as { id: string; status: string }[];
    expect(all.filter((q) => ids.includes(q.id)).map((q) => q.id)).toEqual([...ids].reverse());
    expect(all.every((q) => q.status === 'approved')).toBe(true);
    const page1 = (await app.request('GET', '/v1/intake/questionnaires?limit=1', { key: b.sandboxKey })).body as { id: string }[];
    const page2 = (await app.request('GET', `/v1/intake/questionnaires?limit=1&starting_after=${page1[0].id}`, { key: b.sandboxKey })).body as { id: string }[];
    expect(page1).toHaveLength(1);
    expect(page2[0].id < page1[0].id).toBe(true);

    const drafts = (await app.request('GET', '/v1/intake/questionnaires/drafts', { key: drB.token })).body as { id: string; status: string }[];
    expect(drafts[0].id).toBe(pending.id);
    expect(drafts.every((d) => d.status === 'pending' || d.status === 'draft')).toBe(true);

    expect((await app.request('GET', '/v1/intake/questionnaires/read-a', { key: b.sandboxKey })).body.id).toBe(ids[0]);
    expectEnvelope(await app.request('GET', '/v1/intake/questionnaires/read-a', { key: a.sandboxKey }), 404, 'not_found');
    expectEnvelope(await app.request('GET', '/v1/intake/questionnaires/read-a', { key: b.liveKey }), 404, 'not_found');
    expectEnvelope(await app.request('GET', '/v1/intake/questionnaires/read-pending', { key: b.sandboxKey }), 404, 'not_found');
    const others = (await app.request('GET', '/v1/intake/questionnaires', { key: b.liveKey })).body as { id: string }[];
    expect(others.some((q) => ids.includes(q.id))).toBe(false);
    const otherDrafts = (await app.request('GET', '/v1/intake/questionnaires/drafts', { key: a.sandboxKey })).body as { id: string }[];
    expect(otherDrafts.some((q) => q.id === pending.id)).toBe(false);
    expectEnvelope(await app.request('GET', '/v1/intake/questionnaires/Bad%20Key', { key: b.sandboxKey }), 400, 'validation_error');
    expectEnvelope(await app.request('GET', '/v1/intake/questionnaires/read-a?version=0', { key: b.sandboxKey }), 400, 'validation_error');
  });
});
