import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createTRPCClient, httpLink } from '@trpc/client';
import type { AppRouter } from '@/server/api/root';
import { clinicalPlaneHash } from '@/server/domain/flows/clinical-plane';
import { countRows, createUserAndLogin, expectEnvelope, OPS_KEY, startWithTwoClinics, VALID_NPI, type Clinic, type TestApp } from './helpers/harness';
import { providerSession } from './helpers/orders-world';
import { freshTotp } from './helpers/totp';
import { trpcFailure } from './helpers/trpc';
import { approvedQuestionnaire, weightDocument } from './helpers/intake-world';
import { weightFlowDocument, type PinnedQuestionnaireRef } from './helpers/flow-world';

let app: TestApp;
let a: Clinic;
let b: Clinic;
let drA: Awaited<ReturnType<typeof providerSession>>;
let qA: PinnedQuestionnaireRef;
let protocolA: string;
const live = { 'x-mode': 'live' };

async function protocolOf(key: string) {
  const product = await app.request('POST', '/v1/products', { key, body: { sku: `SKU-${randomUUID().slice(0, 8)}`, name: 'Semaglutide pen', form: 'injection', strength: '0.25 mg', rxRequired: true, active: true } });
  expect(product.status).toBe(201);
  const protocol = await app.request('POST', '/v1/protocols', { key, body: { name: 'GLP-1 start', active: true, items: [{ productId: product.body.id, quantity: 1, sig: 'Inject weekly', refills: 0 }] } });
  expect(protocol.status).toBe(201);
  return protocol.body.id as string;
}

beforeAll(async () => {
  ({ app, a, b } = await startWithTwoClinics());
  drA = await providerSession(app, a.tenantId, ['CA']);
  protocolA = await protocolOf(a.sandboxKey);
  qA = await approvedQuestionnaire(app, { tenantId: a.tenantId, livemode: false }, weightDocument('weight', protocolA));
});
afterAll(async () => app?.close());

const create = (key: string, body: unknown, headers?: Record<string, string>) => app.request('POST', '/v1/flows', { key, body, headers });
const get = (key: string, id: string, headers?: Record<string, string>) => app.request('GET', `/v1/flows/${id}`, { key, headers });
const patch = (key: string, id: string, body: unknown) => app.request('PATCH', `/v1/flows/${id}`, { key, body });
const publish = (key: string, id: string, headers?: Record<string, string>) => app.request('POST', `/v1/flows/${id}/publish`, { key, body: {}, headers });
const approve = (token: string, id: string, body: Record<string, unknown> = {}) => app.request('POST', `/v1/flows/${id}/approve`, { key: token, body });
const versions = (key: string, id: string) => app.request('GET', `/v1/flows/${id}/versions`, { key });

async function newFlow(name = 'Weight loss', document: unknown = weightFlowDocument('weight')) {
  const r = await create(a.sandboxKey, { name, document });
  expect(r.status, r.text).toBe(201);
  return r.body;
}

/** A flow with version 1 approved by drA and active. */
async function liveFlow() {
  const flow = await newFlow();
  const pub = await publish(a.sandboxKey, flow.id);
  expect(pub.body.status, pub.text).toBe('pending_approval');
  const ok = await approve(drA.token, flow.id, { versionId: pub.body.version.id });
  expect(ok.status, ok.text).toBe(200);
  return ok.body;
}

describe('creating and reading flows', () => {
  it('creates a draft flow and reads it back, in lists newest first', async () => {
    const doc = weightFlowDocument('weight');
    const first = await create(a.sandboxKey, { name: 'Weight loss', document: doc });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.stringMatching(/^flw_[0-9a-z]{26}$/),
      object: 'flow',
      name: 'Weight loss',
      status: 'active',
      livemode: false,
      origin: 'staff',
      draft: doc,
      draftClinicalPlaneHash: clinicalPlaneHash(doc, qA),
      activeVersion: null,
      pendingVersion: null,
      pendingClinicalChanges: null,
      embedKeys: [],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      archivedAt: null,
    });
    const second = (await create(a.sandboxKey, { name: 'Second', document: weightFlowDocument('no-such-questionnaire') })).body;
    expect(second.draftClinicalPlaneHash).toBeNull();
    expect((await get(a.sandboxKey, first.body.id)).body).toEqual(first.body);
    const listed = (await app.request('GET', '/v1/flows', { key: a.sandboxKey })).body as { id: string }[];
    expect(listed.slice(0, 2).map((f) => f.id)).toEqual([second.id, first.body.id]);
    const page = (await app.request('GET', `/v1/flows?limit=1&starting_after=${second.id}`, { key: a.sandboxKey })).body as { id: string }[];
    expect(page.map((f) => f.id)).toEqual([first.body.id]);
  });

  it('masks the checkout secret and keeps it when a document comes back without it', async () => {
    const secret = 'store-secret-0123456789abcdefWXYZ';
    const doc = weightFlowDocument('weight', { checkout: { storeUrl: 'https://shop.example.com/checkout', secret } });
    const flow = (await create(a.sandboxKey, { name: 'Shop', document: doc })).body;
    expect(flow.draft.settings.checkout).toEqual({ storeUrl: 'https://shop.example.com/checkout', secretLast4: 'WXYZ' });
    expect(JSON.stringify(flow)).not.toContain(secret);
    // The console sends back what it read: secretLast4 instead of the secret.
    const edited = await patch(a.sandboxKey, flow.id, { document: { ...flow.draft, theme: { tokens: { primary: '#112233' } } } });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.draft.settings.checkout).toEqual({ storeUrl: 'https://shop.example.com/checkout', secretLast4: 'WXYZ' });
    const rotated = await patch(a.sandboxKey, flow.id, { document: { ...flow.draft, settings: { ...flow.draft.settings, checkout: { storeUrl: 'https://shop.example.com/checkout', secret: 'another-secret-0123456789abcd1234' } } } });
    expect(rotated.body.draft.settings.checkout.secretLast4).toBe('1234');
  });

  it('refuses bad documents with 400 naming the step and field, and saves nothing', async () => {
    const good = weightFlowDocument('weight');
    const steps = good.steps;
    const before = await countRows(app, 'flows');
    const cases: [unknown, string][] = [
      [{ ...good, steps: steps.map((s) => (s.id === 'welcome' ? { ...s, blocks: { headline: '' } } : s)) }, 'document.steps.0.blocks.headline'],
      [{ ...good, steps: steps.map((s) => (s.id === 'body' ? { ...s, linkIds: [] } : s)) }, 'document.steps.2.linkIds'],
      [{ ...good, steps: [...steps.slice(0, 6), steps[0], steps[6]] }, 'document.steps.6.id'],
      [{ ...good, steps: steps.filter((s) => s.kind !== 'contact') }, 'document.steps'],
      [{ ...good, theme: { tokens: { primary: 'red;}body{' } } }, 'document.theme.tokens.primary'],
      [{ ...good, settings: {} }, 'document.settings.questionnaireKey'],
    ];
    for (const [document, param] of cases) {
      const r = await create(a.sandboxKey, { name: 'Bad', document });
      expectEnvelope(r, 400, 'validation_error');
      expect(r.body.error.param).toBe(param);
    }
    expectEnvelope(await create(a.sandboxKey, { name: '', document: good }), 400, 'validation_error');
    expect(await countRows(app, 'flows')).toBe(before);
  });

  it('answers 404 to another tenant and the other mode, and 403 without flows.manage', async () => {
    const flow = await newFlow();
    for (const [key, headers] of [
      [b.sandboxKey, undefined],
      [a.liveKey, undefined],
      [drA.token, live],
    ] as const) {
      expectEnvelope(await get(key, flow.id, headers), 404, 'not_found');
    }
    expectEnvelope(await patch(b.sandboxKey, flow.id, { name: 'Stolen' }), 404, 'not_found');
    expectEnvelope(await publish(a.liveKey, flow.id), 404, 'not_found');
    expectEnvelope(await versions(b.sandboxKey, flow.id), 404, 'not_found');
    expectEnvelope(await app.request('POST', `/v1/flows/${flow.id}/archive`, { key: b.sandboxKey, body: {} }), 404, 'not_found');
    expect((await app.request('GET', '/v1/flows', { key: b.sandboxKey })).body.map((f: { id: string }) => f.id)).not.toContain(flow.id);

    const restricted = await app.request('POST', '/v1/developer/keys', { key: a.sandboxKey, body: { name: 'ro', keyType: 'restricted', mode: 'sandbox', scopes: ['orders.read'] } });
    const before = await countRows(app, 'flows');
    expectEnvelope(await create(restricted.body.key, { name: 'x', document: weightFlowDocument('weight') }), 403, 'permission_error', 'missing_scope');
    expectEnvelope(await get(restricted.body.key, flow.id), 403, 'permission_error', 'missing_scope');
    expectEnvelope(await publish(restricted.body.key, flow.id), 403, 'permission_error', 'missing_scope');
    expect(await countRows(app, 'flows')).toBe(before);
    // A provider reads the flows they are asked to approve, but does not edit them.
    expect((await get(drA.token, flow.id)).status).toBe(200);
    expectEnvelope(await patch(drA.token, flow.id, { name: 'Mine' }), 403, 'permission_error', 'missing_scope');
  });
});

describe('editing the draft', () => {
  it('patches the copy of presentation steps; a missing or clinical step is refused, nothing saved', async () => {
    const flow = await newFlow();
    const ok = await patch(a.sandboxKey, flow.id, { name: 'Renamed', stepPatches: [{ stepId: 'welcome', blocks: { headline: 'New headline', body: null } }] });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.name).toBe('Renamed');
    expect(ok.body.draft.steps[0].blocks).toEqual({ headline: 'New headline', cta: 'Start' });
    expect(ok.body.draftClinicalPlaneHash).toBe(flow.draftClinicalPlaneHash);
    for (const [stepPatches, param, code] of [
      [[{ stepId: 'nope', blocks: { headline: 'x' } }], 'stepPatches.0.stepId', 'unknown_step'],
      [[{ stepId: 'welcome', blocks: { headline: 'fine' } }, { stepId: 'consent', blocks: { title: 'Sneaky' } }], 'stepPatches.1.stepId', 'clinical_step'],
      [[{ stepId: 'body', blocks: { title: 'x' } }], 'stepPatches.0.stepId', 'clinical_step'],
      [[{ stepId: 'result', blocks: { eligibleTitle: '' } }], 'stepPatches.0.blocks.eligibleTitle', 'invalid_flow'],
      [[{ stepId: 'welcome', blocks: { script: 'x' } }], 'stepPatches.0.blocks.script', 'invalid_flow'],
    ] as const) {
      const r = await patch(a.sandboxKey, flow.id, { name: 'Should not stick', stepPatches });
      expectEnvelope(r, 400, 'validation_error', code);
      expect(r.body.error.param).toBe(param);
    }
    const bad = { ...flow.draft, steps: flow.draft.steps.map((st: { id: string }) => (st.id === 'goals' ? { ...st, questions: [] } : st)) };
    const r = await patch(a.sandboxKey, flow.id, { name: 'Should not stick', document: bad });
    expectEnvelope(r, 400, 'validation_error', 'invalid_flow');
    expect(r.body.error.param).toBe('document.steps.1.questions');
    const after = (await get(a.sandboxKey, flow.id)).body;
    expect(after.name).toBe('Renamed');
    expect(after.draft).toEqual(ok.body.draft);
    expect(after.updatedAt).toBe(ok.body.updatedAt);
  });

  it('accepts a whole document that changes the clinical plane (its hash changes)', async () => {
    const flow = await newFlow();
    const doc = weightFlowDocument('weight');
    const changed = { ...doc, steps: doc.steps.map((s) => (s.kind === 'consent' ? { ...s, version: '2026-02' } : s)) };
    const r = await patch(a.sandboxKey, flow.id, { document: changed });
    expect(r.status).toBe(200);
    expect(r.body.draftClinicalPlaneHash).not.toBe(flow.draftClinicalPlaneHash);
  });
});

describe('publishing and approval', () => {
  it('a first publication waits for a provider; approval publishes it, records the approver and emits flow.published', async () => {
    const flow = await newFlow();
    const pub = await publish(a.sandboxKey, flow.id);
    expect(pub.status).toBe(200);
    expect(pub.body.status).toBe('pending_approval');
    expect(pub.body.version).toMatchObject({
      object: 'flow_version',
      flowId: flow.id,
      number: 1,
      status: 'pending_approval',
      clinicalPlaneHash: flow.draftClinicalPlaneHash,
      questionnaire: { key: 'weight', version: 1 },
      approvedBy: null,
      approvedAt: null,
      publishedAt: null,
      approvedHere: false,
      publishedBy: expect.stringMatching(/^key_/),
      document: flow.draft,
    });
    expect(pub.body.flow.pendingVersion).toMatchObject({ id: pub.body.version.id, status: 'pending_approval' });
    expect(pub.body.flow.activeVersion).toBeNull();
    expect(pub.body.flow.pendingClinicalChanges).toEqual({ added: ['body', 'history', 'consent', 'contact'], removed: [], changed: [], questionnaireChanged: true });

    const ok = await approve(drA.token, flow.id, { versionId: pub.body.version.id, clinicalPlaneHash: pub.body.version.clinicalPlaneHash });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.status).toBe('published');
    expect(ok.body.version).toMatchObject({ id: pub.body.version.id, status: 'published', approvedBy: drA.id, approvedHere: true, publishedAt: expect.any(String), approvedAt: expect.any(String) });
    expect(ok.body.flow).toMatchObject({ activeVersion: { id: pub.body.version.id, approvedBy: drA.id }, pendingVersion: null, pendingClinicalChanges: null });

    const events = (await app.request('GET', '/v1/developer/events?type=flow.published', { key: a.sandboxKey })).body.data as { data: Record<string, unknown> }[];
    const mine = events.filter((e) => e.data.flowId === flow.id);
    expect(mine).toHaveLength(1);
    expect(mine[0].data).toEqual({ flowId: flow.id, versionId: pub.body.version.id, flowVersionId: pub.body.version.id, clinicalPlaneHash: pub.body.version.clinicalPlaneHash, approvedBy: drA.id });
    expectEnvelope(await approve(drA.token, flow.id), 409, 'conflict', 'no_pending_version');
  });

  it('a copy-only change republishes at once, the approver re-recorded; a clinical change waits', async () => {
    const first = await liveFlow();
    const id = first.flow.id;
    await patch(a.sandboxKey, id, { stepPatches: [{ stepId: 'result', blocks: { eligibleTitle: 'Good news' } }] });
    await patch(a.sandboxKey, id, { document: { ...(await get(a.sandboxKey, id)).body.draft, theme: { tokens: { primary: '#000000' } } } });
    const copy = await publish(a.sandboxKey, id);
    expect(copy.body.status).toBe('published');
    expect(copy.body.version).toMatchObject({ number: 2, status: 'published', approvedBy: drA.id, approvedAt: first.version.approvedAt, approvedHere: false, clinicalPlaneHash: first.version.clinicalPlaneHash });
    expect(copy.body.flow.activeVersion.id).toBe(copy.body.version.id);

    const doc = (await get(a.sandboxKey, id)).body.draft;
    await patch(a.sandboxKey, id, { document: { ...doc, steps: doc.steps.map((s: { kind: string }) => (s.kind === 'consent' ? { ...s, text: 'New consent text.' } : s)) } });
    const clinical = await publish(a.sandboxKey, id);
    expect(clinical.body.status).toBe('pending_approval');
    expect(clinical.body.version).toMatchObject({ number: 3, approvedBy: null });
    expect(clinical.body.flow.activeVersion.id).toBe(copy.body.version.id);
    expect(clinical.body.flow.pendingClinicalChanges).toEqual({ added: [], removed: [], changed: ['consent'], questionnaireChanged: false });

    // A second publication replaces the waiting one, which is withdrawn.
    const again = await publish(a.sandboxKey, id);
    expect(again.body.version.number).toBe(4);
    expectEnvelope(await approve(drA.token, id, { versionId: clinical.body.version.id }), 409, 'conflict', 'flow_changed');
    expectEnvelope(await approve(drA.token, id, { clinicalPlaneHash: 'a'.repeat(64) }), 409, 'conflict', 'flow_changed');
    const ok = await approve(drA.token, id, { clinicalPlaneHash: again.body.version.clinicalPlaneHash });
    expect(ok.status).toBe(200);

    const all = (await versions(a.sandboxKey, id)).body as { number: number; status: string }[];
    expect(all.map((v) => [v.number, v.status])).toEqual([
      [4, 'published'],
      [3, 'withdrawn'],
      [2, 'superseded'],
      [1, 'superseded'],
    ]);
    const events = (await app.request('GET', '/v1/developer/events?type=flow.published&limit=100', { key: a.sandboxKey })).body.data as { data: Record<string, unknown> }[];
    expect(events.filter((e) => e.data.flowId === id).map((e) => e.data.versionId)).toEqual([ok.body.version.id, copy.body.version.id, first.version.id]);
  });

  it('is approved only by a provider session with a verified NPI and MFA', async () => {
    const flow = await newFlow();
    await publish(a.sandboxKey, flow.id);
    const admin = await createUserAndLogin(app, a.tenantId, { email: `admin-${randomUUID()}@clinic.test`, role: 'admin' });
    const owner = await createUserAndLogin(app, a.tenantId, { email: `owner-${randomUUID()}@clinic.test`, role: 'owner' });
    const unverified = await createUserAndLogin(app, a.tenantId, { email: `dr-nv-${randomUUID()}@clinic.test`, role: 'provider', npi: VALID_NPI, npiVerified: false, licensedStates: ['CA'] });
    const enroll = await app.request('POST', '/v1/auth/mfa/enroll', { key: unverified.token, body: {} });
    expect((await app.request('POST', '/v1/auth/mfa/verify', { key: unverified.token, body: { code: await freshTotp(enroll.body.secret) } })).status).toBe(200);
    const noMfa = await createUserAndLogin(app, a.tenantId, { email: `dr-nomfa-${randomUUID()}@clinic.test`, role: 'provider', npi: VALID_NPI, npiVerified: true, licensedStates: ['CA'] });
    const restricted = await app.request('POST', '/v1/developer/keys', { key: a.sandboxKey, body: { name: 'fl', mode: 'sandbox', keyType: 'restricted', scopes: ['flows.manage'] } });
    const cases: [string, string][] = [
      ['secret key', a.sandboxKey],
      ['restricted key with flows.manage', restricted.body.key],
      ['admin', admin.token],
      ['owner', owner.token],
      ['ops', OPS_KEY],
      ['provider without a verified NPI', unverified.token],
      ['provider without MFA', noMfa.token],
    ];
    for (const [who, token] of cases) {
      const r = await approve(token, flow.id);
      expect(r.status, who).toBe(403);
      expectEnvelope(r, 403, 'permission_error');
    }
    expect((await get(a.sandboxKey, flow.id)).body.activeVersion).toBeNull();
    // Another tenant's provider and the other mode see no such flow.
    const drB = await providerSession(app, b.tenantId, ['CA']);
    expectEnvelope(await approve(drB.token, flow.id), 404, 'not_found');
    expectEnvelope(await app.request('POST', `/v1/flows/${flow.id}/approve`, { key: drA.token, body: {}, headers: live }), 404, 'not_found');
    expect((await approve(drA.token, flow.id)).status).toBe(200);
  });

  it('refuses a draft the questionnaire or the account cannot support, naming the field; no version is written', async () => {
    const before = await countRows(app, 'flow_versions');
    const doc = weightFlowDocument('weight');
    const inactiveProtocol = await protocolOf(a.sandboxKey);
    await app.request('PATCH', `/v1/protocols/${inactiveProtocol}`, { key: a.sandboxKey, body: { active: false } });
    const cases: [unknown, string, string][] = [
      [weightFlowDocument('unapproved'), 'settings.questionnaireKey', 'questionnaire_not_approved'],
      [{ ...doc, steps: doc.steps.map((s) => (s.id === 'history' ? { ...s, linkIds: ['pregnant', 'takesMeds', 'meds', 'goal', 'shoeSize'] } : s)) }, 'steps.3.linkIds.4', 'invalid_flow'],
      [{ ...doc, steps: doc.steps.map((s) => (s.id === 'history' ? { ...s, linkIds: ['pregnant', 'takesMeds', 'meds'] } : s)) }, 'steps', 'invalid_flow'],
      [
        {
          ...doc,
          steps: doc.steps.map((s) =>
            s.id === 'body' ? { ...s, linkIds: ['dob', 'height', 'weight', 'takesMeds'] } : s.id === 'history' ? { ...s, linkIds: ['pregnant', 'meds', 'goal'] } : s,
          ),
        },
        'steps.3.linkIds.1',
        'invalid_flow',
      ],
      [weightFlowDocument('weight', { protocolId: 'prt_01h2xcejqtf2nbrexx3vqjhp41' }), 'settings.protocolId', 'unknown_protocol'],
      [weightFlowDocument('weight', { protocolId: inactiveProtocol }), 'settings.protocolId', 'protocol_inactive'],
      [weightFlowDocument('weight', { conversionPostbacks: ['https://ads.example.com/p', 'https://169.254.169.254/latest'] }), 'settings.conversionPostbacks.1', 'url_forbidden_host'],
      [weightFlowDocument('weight', { conversionPostbacks: ['http://ads.example.com/p'] }), 'settings.conversionPostbacks.0', 'url_not_https'],
    ];
    for (const [document, param, code] of cases) {
      const flow = await newFlow('Unpublishable', document);
      const r = await publish(a.sandboxKey, flow.id);
      expectEnvelope(r, 400, 'validation_error', code);
      expect(r.body.error.param, code).toBe(param);
      expect((await get(a.sandboxKey, flow.id)).body.pendingVersion).toBeNull();
    }
    expect(await countRows(app, 'flow_versions')).toBe(before);
  });

  it('gives concurrent publications distinct numbers and leaves one active version', async () => {
    const first = await liveFlow();
    const id = first.flow.id;
    const answers = await Promise.all([1, 2, 3, 4].map(() => publish(a.sandboxKey, id)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(answers.map((r) => r.body.version.number).sort()).toEqual([2, 3, 4, 5]);
    const all = (await versions(a.sandboxKey, id)).body as { id: string; status: string }[];
    expect(all.filter((v) => v.status === 'published')).toHaveLength(1);
    expect((await get(a.sandboxKey, id)).body.activeVersion.id).toBe(all[0].id);
  });
});

describe('the pinned questionnaire', () => {
  it('a new approved questionnaire version is a clinical change, and a pending version pinned to the old one cannot be approved', async () => {
    const key = `weight-${randomUUID().slice(0, 6)}`;
    const v1 = await approvedQuestionnaire(app, { tenantId: a.tenantId, livemode: false }, weightDocument(key, protocolA));
    const flow = await newFlow('Pinned', weightFlowDocument(key));
    const pub = await publish(a.sandboxKey, flow.id);
    expect((await approve(drA.token, flow.id)).status).toBe(200);
    const draft = (await get(a.sandboxKey, flow.id)).body.draft;
    const pending = await publish(a.sandboxKey, flow.id);
    expect(pending.body.status).toBe('published');
    expect(pending.body.version.document).toEqual(pub.body.version.document);

    // The questionnaire moves on: retire v1 and approve v2 (a provider approved it through intake).
    const { questionnaires } = await import('@/db/schema');
    const { eq } = await import('drizzle-orm');
    await app.services.database.db.update(questionnaires).set({ status: 'retired' }).where(eq(questionnaires.id, v1.id));
    const v2 = await approvedQuestionnaire(app, { tenantId: a.tenantId, livemode: false }, { ...weightDocument(key, protocolA), title: 'Weight v2' }, 2);
    expect((await get(a.sandboxKey, flow.id)).body.draftClinicalPlaneHash).toBe(clinicalPlaneHash(draft, v2));
    const repinned = await publish(a.sandboxKey, flow.id);
    expect(repinned.body.status).toBe('pending_approval');
    expect(repinned.body.version.questionnaire).toEqual({ key, version: 2 });
    expect(repinned.body.flow.pendingClinicalChanges).toEqual({ added: [], removed: [], changed: [], questionnaireChanged: true });

    // And again before the provider got to it: the waiting version is pinned to a retired questionnaire.
    await app.services.database.db.update(questionnaires).set({ status: 'retired' }).where(eq(questionnaires.id, v2.id));
    await approvedQuestionnaire(app, { tenantId: a.tenantId, livemode: false }, { ...weightDocument(key, protocolA), title: 'Weight v3' }, 3);
    expectEnvelope(await approve(drA.token, flow.id), 409, 'conflict', 'questionnaire_changed');
    expect((await get(a.sandboxKey, flow.id)).body.activeVersion.id).toBe(pending.body.version.id);
  });

  it('keeps versions immutable: editing the draft changes no version', async () => {
    const first = await liveFlow();
    await patch(a.sandboxKey, first.flow.id, { name: 'Edited', stepPatches: [{ stepId: 'welcome', blocks: { headline: 'Changed after publication' } }] });
    const [v1] = (await versions(a.sandboxKey, first.flow.id)).body;
    expect(v1).toEqual(first.version);
  });
});

describe('the console over /api/trpc', () => {
  it('manages flows with an owner session and approves with a provider session, with the same errors', async () => {
    const trpc = (token: string) => createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/api/trpc`, headers: { authorization: `Bearer ${token}` } })] });
    const owner = await createUserAndLogin(app, a.tenantId, { email: `owner-trpc-${randomUUID()}@clinic.test`, role: 'owner' });
    const made = await trpc(owner.token).flows.create.mutate({ name: 'From the console', document: weightFlowDocument('weight') });
    expect(made.createdAt).toEqual(expect.any(String));
    const refused = await trpcFailure(trpc(owner.token).flows.update.mutate({ id: made.id, stepPatches: [{ stepId: 'contact', blocks: { title: 'x' } }] }));
    expect(refused.data).toMatchObject({ httpStatus: 400, code: 'clinical_step', param: 'stepPatches.0.stepId' });
    const pub = await trpc(owner.token).flows.publish.mutate({ id: made.id });
    expect(pub.status).toBe('pending_approval');
    expect((await trpcFailure(trpc(owner.token).flows.approve.mutate({ id: made.id }))).data.httpStatus).toBe(403);
    const ok = await trpc(drA.token).flows.approve.mutate({ id: made.id, clinicalPlaneHash: pub.version.clinicalPlaneHash });
    expect(ok.flow.activeVersion?.approvedBy).toBe(drA.id);
    expect((await trpc(drA.token).flows.versions.query({ id: made.id })).map((v) => v.status)).toEqual(['published']);
    expect((await trpc(owner.token).flows.list.query({})).map((f) => f.id)).toContain(made.id);
  });
});

describe('concurrent approvals', () => {
  it('two providers approving at once: one publishes, the other finds nothing waiting; one event', async () => {
    const flow = await newFlow('Race');
    await publish(a.sandboxKey, flow.id);
    const drA2 = await providerSession(app, a.tenantId, ['TX']);
    const answers = await Promise.all([approve(drA.token, flow.id), approve(drA2.token, flow.id)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expectEnvelope(answers.find((r) => r.status === 409)!, 409, 'conflict', 'no_pending_version');
    const events = (await app.request('GET', '/v1/developer/events?type=flow.published&limit=100', { key: a.sandboxKey })).body.data as { data: Record<string, unknown> }[];
    expect(events.filter((e) => e.data.flowId === flow.id)).toHaveLength(1);
  });
});

describe('archiving', () => {
  it('archives: the flow stops serving and refuses changes; a waiting version is withdrawn', async () => {
    const published = await liveFlow();
    const id = published.flow.id;
    const key = await app.request('POST', '/v1/embed-keys', { key: a.sandboxKey, body: { allowedOrigins: [], flowId: id } });
    expect(key.status, key.text).toBe(201);
    expect((await get(a.sandboxKey, id)).body.embedKeys).toEqual([key.body.id]);
    const doc = (await get(a.sandboxKey, id)).body.draft;
    await patch(a.sandboxKey, id, { document: { ...doc, steps: doc.steps.map((s: { kind: string }) => (s.kind === 'consent' ? { ...s, version: 'v9' } : s)) } });
    const pending = await publish(a.sandboxKey, id);
    expect(pending.body.status).toBe('pending_approval');

    const archived = await app.request('POST', `/v1/flows/${id}/archive`, { key: a.sandboxKey, body: {} });
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ status: 'archived', archivedAt: expect.any(String), pendingVersion: null, activeVersion: { id: published.version.id } });
    expect((await app.request('POST', `/v1/flows/${id}/archive`, { key: a.sandboxKey, body: {} })).body).toEqual(archived.body);
    expectEnvelope(await patch(a.sandboxKey, id, { name: 'x' }), 409, 'conflict', 'flow_archived');
    expectEnvelope(await publish(a.sandboxKey, id), 409, 'conflict', 'flow_archived');
    expectEnvelope(await approve(drA.token, id), 409, 'conflict', 'flow_archived');
    expect(((await versions(a.sandboxKey, id)).body as { status: string }[])[0].status).toBe('withdrawn');
    expect((await app.request('GET', '/v1/flows', { key: a.sandboxKey })).body.map((f: { id: string }) => f.id)).toContain(id);
  });
});

describe('embed keys name a flow of their own tenant and mode', () => {
  it('refuses a flowId of another tenant, the other mode or none at all with 400 flowId', async () => {
    const flow = await newFlow();
    const before = await countRows(app, 'embed_keys');
    for (const [key, flowId] of [
      [b.sandboxKey, flow.id],
      [a.liveKey, flow.id],
      [a.sandboxKey, 'flw_01h2xcejqtf2nbrexx3vqjhp41'],
    ] as const) {
      const r = await app.request('POST', '/v1/embed-keys', { key, body: { allowedOrigins: [], flowId } });
      expectEnvelope(r, 400, 'validation_error');
      expect(r.body.error.param).toBe('flowId');
    }
    expect(await countRows(app, 'embed_keys')).toBe(before);
    const made = await app.request('POST', '/v1/embed-keys', { key: a.sandboxKey, body: { allowedOrigins: [] } });
    const other = await newFlow('Other');
    const moved = await app.request('PATCH', `/v1/embed-keys/${made.body.id}`, { key: a.sandboxKey, body: { flowId: other.id } });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.flowId).toBe(other.id);
    const refused = await app.request('PATCH', `/v1/embed-keys/${made.body.id}`, { key: a.sandboxKey, body: { flowId: 'flw_01h2xcejqtf2nbrexx3vqjhp41' } });
    expectEnvelope(refused, 400, 'validation_error');
    expect(refused.body.error.param).toBe('flowId');
    const cleared = await app.request('PATCH', `/v1/embed-keys/${made.body.id}`, { key: a.sandboxKey, body: { flowId: null } });
    expect(cleared.body.flowId).toBeNull();
  });
});
