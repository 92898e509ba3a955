import { createTRPCClient, httpLink } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '@/server/api/root';
import { catalogWorld } from './helpers/catalog-world';
import { weightFlowDocument } from './helpers/flow-world';
import { countRows, createUserAndLogin, expectEnvelope, startWithTwoClinics, type Clinic, type TestApp } from './helpers/harness';
import { weightDocument } from './helpers/intake-world';
import { providerSession } from './helpers/orders-world';
import { trpcFailure } from './helpers/trpc';

/**
 * Issue 50, item 2: a new clinic's first live flow. The console's "Go live" checklist (overview.goLive, over
 * /api/trpc only) for an empty live mode reports nothing done, and each step turns done as the clinic does
 * it through the same procedures the console calls; the flow's protocol setting is saved in its draft, and a
 * publication that cannot go live is refused with a stable code, the field, and words naming what to do.
 */
let app: TestApp;
let a: Clinic;
let b: Clinic;
let adminToken: string;
let dr: Awaited<ReturnType<typeof providerSession>>;
const LIVE = { 'x-mode': 'live' };

const client = (token: string, mode: 'live' | 'sandbox' = 'live') =>
  createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/api/trpc`, headers: { authorization: `Bearer ${token}`, 'x-mode': mode } })] });
const checklist = (mode: 'live' | 'sandbox' = 'live') => client(adminToken, mode).overview.goLive.query();
const stepOf = async (id: string, mode: 'live' | 'sandbox' = 'live') => (await checklist(mode)).steps.find((s) => s.id === id)!;

async function ok<T = any>(res: Promise<{ status: number; text: string; body: T }>, status = 200): Promise<T> {
  const r = await res;
  expect(r.status, r.text).toBe(status);
  return r.body;
}

beforeAll(async () => {
  ({ app, a, b } = await startWithTwoClinics());
  adminToken = (await createUserAndLogin(app, a.tenantId, { email: 'admin@golive.test', role: 'admin' })).token;
});
afterAll(async () => app?.close());

describe('overview.goLive: the checklist of a new clinic in live mode', () => {
  let flowId: string;
  let protocolId: string;

  it('reports nothing done in an empty live mode, the product first, with where to do each step', async () => {
    const c = await checklist();
    expect(c).toMatchObject({ object: 'go_live_checklist', mode: 'live', complete: false, next: 'product', doneCount: 0, approvers: 0, hostedPageUrl: null });
    expect(c.steps.map((s) => [s.id, s.status, s.href])).toEqual([
      ['product', 'missing', '/products'],
      ['pharmacy', 'missing', '/pharmacies'],
      ['routing', 'not_saved', '/routing'],
      ['protocol', 'missing', '/products#protocols'],
      ['questionnaire', 'missing', '/intake/questionnaires/new'],
      ['flow', 'missing', '/flows'],
      ['embedKey', 'blocked', '/embed-keys'],
    ]);
    expect(c.steps.every((s) => !s.done && s.subject === null && s.count === 0)).toBe(true);
  });

  it('turns the product, pharmacy and routing steps done as each is set up', async () => {
    const w = catalogWorld(app, a.liveKey);
    const product = await w.product('SEMA-LIVE');
    expect(await stepOf('product')).toMatchObject({ done: true, status: 'done', count: 1 });
    expect((await checklist()).next).toBe('pharmacy');

    const pharmacy = await w.pharmacy('Sunrise Live', ['CA']);
    expect(await stepOf('pharmacy')).toMatchObject({ done: false, status: 'catalog_missing', subject: { id: pharmacy.id, name: 'Sunrise Live' }, detail: 'simulated' });
    const upload = await w.upload(pharmacy.id, 'sku,item_code,price_cents,stock,eta_days\nSEMA-LIVE,S-1,12900,10,3');
    expect(upload.status, upload.text).toBe(201);
    expect(await stepOf('pharmacy')).toMatchObject({ done: false, status: 'catalog_pending', subject: { id: pharmacy.id } });
    await ok(app.request('PATCH', `/v1/catalogs/${upload.body.id}/approve`, { key: a.liveKey }));
    expect(await stepOf('pharmacy')).toMatchObject({ done: true, status: 'done', count: 1, subject: { id: pharmacy.id, name: 'Sunrise Live' } });

    expect(await stepOf('routing')).toMatchObject({ done: false, status: 'not_saved', detail: 'lowest_cost' });
    await ok(w.policy({ strategy: 'fastest' }));
    expect(await stepOf('routing')).toMatchObject({ done: true, status: 'done', detail: 'fastest' });

    const protocol = await ok(app.request('POST', '/v1/protocols', { key: a.liveKey, body: { name: 'GLP-1 start', active: false, items: [{ productId: product.id, quantity: 1, sig: 'Inject weekly', refills: 0 }] } }), 201);
    protocolId = protocol.id;
    expect(await stepOf('protocol')).toMatchObject({ done: false, status: 'inactive', subject: { id: protocolId, name: 'GLP-1 start' } });
    await ok(app.request('PATCH', `/v1/protocols/${protocolId}`, { key: a.liveKey, body: { active: true } }));
    expect(await stepOf('protocol')).toMatchObject({ done: true, status: 'done', count: 1, subject: { id: protocolId, name: 'GLP-1 start' } });
    expect((await checklist()).next).toBe('questionnaire');
  });

  it('turns the questionnaire done when a provider approves it, and counts the providers who can approve', async () => {
    // Published without a protocol, as the console's builder lets an admin do: the flow will choose one.
    const published = await ok(app.request('POST', '/v1/intake/questionnaires', { key: a.liveKey, body: weightDocument('weight-live') }), 201);
    expect(await stepOf('questionnaire')).toMatchObject({ done: false, status: 'waiting_for_provider', href: '/intake/questionnaires/pending', subject: { id: published.id, name: 'Weight management' }, detail: 'weight-live v1' });
    expect((await checklist()).approvers).toBe(0);
    dr = await providerSession(app, a.tenantId, ['CA']);
    expect((await checklist()).approvers).toBe(1);
    await ok(app.request('POST', `/v1/intake/questionnaires/${published.id}/approve`, { key: dr.token, body: {}, headers: LIVE }));
    expect(await stepOf('questionnaire')).toMatchObject({ done: true, status: 'done', href: '/intake/questionnaires/weight-live', count: 1, detail: 'weight-live v1' });
  });

  it('says a flow without a protocol cannot be published, in words and by field; choosing the protocol in its settings lets it through', async () => {
    const flow = await ok(app.request('POST', '/v1/flows', { key: a.liveKey, body: { name: 'Weight loss, live', document: weightFlowDocument('weight-live') } }), 201);
    flowId = flow.id;
    expect(await stepOf('flow')).toMatchObject({ done: false, status: 'unpublished', href: `/flows/${flowId}`, subject: { id: flowId, name: 'Weight loss, live' } });

    const versionsBefore = await countRows(app, 'flow_versions');
    const refused = await app.request('POST', `/v1/flows/${flowId}/publish`, { key: a.liveKey, body: {} });
    expectEnvelope(refused, 400, 'validation_error', 'protocol_required');
    expect(refused.body.error.param).toBe('settings.protocolId');
    expect(refused.body.error.message).toMatch(/^Choose the protocol this flow prescribes/);
    expect(refused.body.error.message).toContain("questionnaire 'weight-live'");
    expect(await countRows(app, 'flow_versions')).toBe(versionsBefore);

    // The editor's protocol setting: saved into the draft's settings and read back.
    const saved = await ok(app.request('PATCH', `/v1/flows/${flowId}`, { key: a.liveKey, body: { document: weightFlowDocument('weight-live', { protocolId }) } }));
    expect(saved.draft.settings).toEqual({ questionnaireKey: 'weight-live', protocolId });
    expect((await ok(app.request('GET', `/v1/flows/${flowId}`, { key: a.liveKey }))).draft.settings.protocolId).toBe(protocolId);

    const pending = await ok(app.request('POST', `/v1/flows/${flowId}/publish`, { key: a.liveKey, body: {} }));
    expect(pending.status).toBe('pending_approval');
    expect(pending.version.document.settings.protocolId).toBe(protocolId);
    expect(await stepOf('flow')).toMatchObject({ done: false, status: 'waiting_for_provider', subject: { id: flowId } });
    expect(await stepOf('embedKey')).toMatchObject({ done: false, status: 'blocked' });

    await ok(app.request('POST', `/v1/flows/${flowId}/approve`, { key: dr.token, body: { versionId: pending.version.id }, headers: LIVE }));
    expect(await stepOf('flow')).toMatchObject({ done: true, status: 'done', count: 1, subject: { id: flowId, name: 'Weight loss, live' }, detail: '1' });
    expect(await stepOf('embedKey')).toMatchObject({ done: false, status: 'missing', href: `/embed-keys?flow=${flowId}` });
  });

  it('turns the embed key done only with an allowed origin, then the checklist is complete with the hosted page address', async () => {
    const key = await ok(app.request('POST', '/v1/embed-keys', { key: a.liveKey, body: { name: 'Homepage', allowedOrigins: [], flowId } }), 201);
    expect(await stepOf('embedKey')).toMatchObject({ done: false, status: 'no_origins', subject: { id: key.id, name: 'Homepage' }, href: `/embed-keys?flow=${flowId}` });
    expect((await checklist()).hostedPageUrl).toBeNull();
    await ok(app.request('PATCH', `/v1/embed-keys/${key.id}`, { key: a.liveKey, body: { allowedOrigins: ['https://clinic.example'] } }));
    const c = await checklist();
    expect(c).toMatchObject({ complete: true, next: null, doneCount: 7, hostedPageUrl: `${app.services.auth.publicUrl}/f/${key.id}` });
    expect(c.steps.find((s) => s.id === 'embedKey')).toMatchObject({ done: true, status: 'done', count: 1, subject: { id: key.id, name: 'Homepage' }, detail: flowId });
    // The key serves the published flow, live, to the allowed site.
    const served = await app.request('GET', `/v1/public/flows/${key.id}`, { headers: { origin: 'https://clinic.example' } });
    expect(served.status, served.text).toBe(200);
    expect(served.text).toContain('Lose weight with a clinician');

    // Revoking the key undoes the step.
    await ok(app.request('DELETE', `/v1/embed-keys/${key.id}`, { key: a.liveKey }));
    expect(await checklist()).toMatchObject({ complete: false, next: 'embedKey', hostedPageUrl: null });
  });

  it('keeps the modes and the tenants apart: the same clinic’s sandbox and another clinic start from nothing', async () => {
    expect((await checklist('sandbox')).steps.filter((s) => s.done)).toEqual([]);
    const otherAdmin = (await createUserAndLogin(app, b.tenantId, { email: 'admin@other.test', role: 'admin' })).token;
    const other = await client(otherAdmin).overview.goLive.query();
    expect(other.doneCount).toBe(0);
    expect(other.approvers).toBe(0);
  });

  it('is for admins and owners in the console only: refused to a provider and to API keys, and absent from /v1', async () => {
    const provider = await trpcFailure(client(dr.token).overview.goLive.query());
    expect(provider.data).toMatchObject({ httpStatus: 403, code: 'missing_scope' });
    const apiKey = await trpcFailure(client(a.liveKey).overview.goLive.query());
    expect(apiKey.data).toMatchObject({ httpStatus: 403, code: 'user_session_required' });
    const rest = await app.request('GET', '/v1/overview/go-live', { key: a.liveKey });
    expect(rest.status).toBe(404);
  });
});

describe('publishing a flow that cannot go live: the code, the field and the words', () => {
  it('names the unapproved questionnaire, an unknown (other clinic’s) protocol and an inactive one by name; nothing is written', async () => {
    const w = catalogWorld(app, a.sandboxKey);
    const product = await w.product('SEMA-SBX');
    const inactive = await ok(app.request('POST', '/v1/protocols', { key: a.sandboxKey, body: { name: 'Old starter', active: false, items: [{ productId: product.id, quantity: 1, sig: 'Weekly', refills: 0 }] } }), 201);
    const theirs = await ok(app.request('POST', '/v1/protocols', { key: b.sandboxKey, body: { name: 'Theirs', items: [{ productId: (await catalogWorld(app, b.sandboxKey).product('B-1')).id, quantity: 1, sig: 'Weekly', refills: 0 }] } }), 201);
    const pendingQ = await ok(app.request('POST', '/v1/intake/questionnaires', { key: a.sandboxKey, body: weightDocument('weight-sbx') }), 201);

    const cases: [Record<string, unknown>, string, string, RegExp][] = [
      [weightFlowDocument('weight-sbx'), 'questionnaire_not_approved', 'settings.questionnaireKey', /^Questionnaire 'weight-sbx' has no approved version in this mode; a provider must approve one first\.$/],
      [weightFlowDocument('weight-sbx', { protocolId: theirs.id }), 'unknown_protocol', 'settings.protocolId', /names no protocol of this account in this mode/],
      [weightFlowDocument('weight-sbx', { protocolId: inactive.id }), 'protocol_inactive', 'settings.protocolId', /^Protocol 'Old starter' is inactive; activate it or choose another\.$/],
    ];
    for (const [i, [document, code, param, message]] of cases.entries()) {
      // The questionnaire is approved after the first case, so the later ones reach the protocol check.
      if (i === 1) await ok(app.request('POST', `/v1/intake/questionnaires/${pendingQ.id}/approve`, { key: dr.token, body: {} }));
      const flow = await ok(app.request('POST', '/v1/flows', { key: a.sandboxKey, body: { name: `Case ${code}`, document } }), 201);
      const before = await countRows(app, 'flow_versions');
      const r = await app.request('POST', `/v1/flows/${flow.id}/publish`, { key: a.sandboxKey, body: {} });
      expectEnvelope(r, 400, 'validation_error', code);
      expect(r.body.error.param, code).toBe(param);
      expect(r.body.error.message, code).toMatch(message);
      expect(await countRows(app, 'flow_versions')).toBe(before);

      // The console's transport carries the same code, field and words.
      const viaConsole = await trpcFailure(client(adminToken, 'sandbox').flows.publish.mutate({ id: flow.id }));
      expect(viaConsole.data).toMatchObject({ code, param, httpStatus: 400 });
      expect(viaConsole.message).toBe(r.body.error.message);
    }
  });
});
