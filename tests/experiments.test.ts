import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedFlow, weightFlowDocument, type PinnedQuestionnaireRef } from './helpers/flow-world';
import { countRows, createTenantWithKeys, expectEnvelope, startTestApp, type Clinic, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, weightDocument } from './helpers/intake-world';
import { providerSession } from './helpers/orders-world';

/*
 * The experiment endpoints over HTTP (spec "Flows: analytics and experiments", DESIGN decision 27): start,
 * list with live results, stop, fold-in; overrides on the presentation plane only; one running experiment per
 * flow, even under a race; tenancy, mode and permissions; refusals write nothing.
 */

const KEY = 'weight';
let app: TestApp;
let a: Clinic;
let b: Clinic;
let protocolA: string;
let qSandbox: PinnedQuestionnaireRef;
let qLive: PinnedQuestionnaireRef;
let qOther: PinnedQuestionnaireRef;

async function rows(query: ReturnType<typeof sql>) {
  return ((await app.services.database.db.execute(query)) as unknown as { rows: Record<string, any>[] }).rows;
}

const create = (key: string, flowId: string, body: unknown) => app.request('POST', `/v1/flows/${flowId}/experiments`, { key, body });
const list = (key: string, flowId: string, query = '') => app.request('GET', `/v1/flows/${flowId}/experiments${query}`, { key });
const stop = (key: string, expId: string, body: unknown = {}) => app.request('POST', `/v1/flows/experiments/${expId}/stop`, { key, body });
const foldIn = (key: string, expId: string) => app.request('POST', `/v1/flows/experiments/${expId}/fold-in`, { key, body: {} });

const COPY = [{ stepId: 'welcome', blocks: { headline: 'Feel better, with a clinician', cta: 'Check eligibility' } }];

async function sandboxFlow() {
  return publishedFlow(app, { tenantId: a.tenantId, livemode: false }, qSandbox, weightFlowDocument(KEY));
}

async function started(flowId: string, body: Record<string, unknown> = { name: 'Headline test', splitPct: 50, overrides: COPY }) {
  const res = await create(a.sandboxKey, flowId, body);
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function protocolOf(key: string) {
  const product = await app.request('POST', '/v1/products', {
    key,
    body: { sku: `SKU-${randomUUID().slice(0, 8)}`, name: 'Semaglutide pen', form: 'injection', strength: '0.25 mg', rxRequired: true, active: true },
  });
  expect(product.status, product.text).toBe(201);
  const protocol = await app.request('POST', '/v1/protocols', { key, body: { name: 'GLP-1 start', active: true, items: [{ productId: product.body.id, quantity: 1, sig: 'Inject weekly', refills: 0 }] } });
  expect(protocol.status, protocol.text).toBe(201);
  return protocol.body.id as string;
}

async function restrictedKey(scopes: string[]) {
  const res = await app.request('POST', '/v1/developer/keys', { key: a.sandboxKey, body: { name: 'r', mode: 'sandbox', keyType: 'restricted', scopes } });
  expect(res.status, res.text).toBe(201);
  return res.body.key as string;
}

beforeAll(async () => {
  app = await startTestApp();
  a = await createTenantWithKeys(app, 'Northside Clinic');
  b = await createTenantWithKeys(app, 'Other Clinic');
  protocolA = await protocolOf(a.sandboxKey);
  qSandbox = await approvedQuestionnaire(app, { tenantId: a.tenantId, livemode: false }, weightDocument(KEY, protocolA));
  qLive = await approvedQuestionnaire(app, { tenantId: a.tenantId, livemode: true }, weightDocument(KEY));
  qOther = await approvedQuestionnaire(app, { tenantId: b.tenantId, livemode: false }, weightDocument(KEY));
});
afterAll(async () => {
  await app?.close();
});

describe('POST /flows/{id}/experiments', () => {
  it('201 running on the active version, with zero results and an analysis; listed newest first', async () => {
    const flow = await sandboxFlow();
    const res = await create(a.sandboxKey, flow.flowId, { name: 'Headline test', splitPct: 30, overrides: COPY });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      object: 'experiment',
      flowId: flow.flowId,
      flowVersionId: flow.versionId,
      name: 'Headline test',
      status: 'running',
      splitPct: 30,
      overrides: COPY,
      winnerVariant: null,
      livemode: false,
      stoppedAt: null,
      foldedInAt: null,
      results: { control: { sessions: 0, qualified: 0, qualifyRate: 0 }, variant: { sessions: 0, qualified: 0, qualifyRate: 0 } },
      analysis: { srmPValue: null, srmPassed: true, relativeUplift: null, enoughData: false, minSessionsPerArm: 150 },
    });
    expect(res.body.id).toMatch(/^exp_[0-9a-z]{26}$/);
    expect(res.body.analysis.chanceToBeatControl).toBeCloseTo(0.5, 10);
    const [row] = await rows(sql`select split_basis_points, status from experiments where id = ${res.body.id}`);
    expect(row).toEqual({ split_basis_points: 3000, status: 'running' });

    const listed = await list(a.sandboxKey, flow.flowId);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toEqual([res.body]);
    expect((await stop(a.sandboxKey, res.body.id)).status).toBe(200);
    const second = await started(flow.flowId, { name: 'Second', splitPct: 12.5, overrides: [] });
    expect(second.splitPct).toBe(12.5);
    const both = await list(a.sandboxKey, flow.flowId);
    expect(both.body.map((e: { id: string }) => e.id)).toEqual([second.id, res.body.id]);
    const page = await list(a.sandboxKey, flow.flowId, `?limit=1&starting_after=${second.id}`);
    expect(page.body.map((e: { id: string }) => e.id)).toEqual([res.body.id]);
    expectEnvelope(await list(a.sandboxKey, flow.flowId, `?starting_after=${flow.flowId}`), 400, 'validation_error');
  });

  it('a flow not published yet: the overrides are checked against the draft; flowVersionId null', async () => {
    const draft = await app.request('POST', '/v1/flows', { key: a.sandboxKey, body: { name: 'Draft only', document: weightFlowDocument(KEY) } });
    expect(draft.status, draft.text).toBe(201);
    const exp = await started(draft.body.id);
    expect(exp).toMatchObject({ flowVersionId: null, status: 'running' });
    expectEnvelope(await create(a.sandboxKey, draft.body.id, { name: 'x', splitPct: 50, overrides: [{ stepId: 'nope', blocks: {} }] }), 400, 'validation_error', 'unknown_step');
  });

  it('one running experiment per flow: 409 experiment_running, nothing written', async () => {
    const flow = await sandboxFlow();
    await started(flow.flowId);
    const before = await countRows(app, 'experiments');
    expectEnvelope(await create(a.sandboxKey, flow.flowId, { name: 'Another', splitPct: 50, overrides: [] }), 409, 'conflict', 'experiment_running');
    expect(await countRows(app, 'experiments')).toBe(before);
  });

  it('under a race of six starts, exactly one runs and the rest are 409', async () => {
    const flow = await sandboxFlow();
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => create(a.sandboxKey, flow.flowId, { name: `Race ${i}`, splitPct: 50, overrides: [] })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of results.filter((x) => x.status === 409)) expectEnvelope(r, 409, 'conflict', 'experiment_running');
    const [{ n }] = await rows(sql`select count(*)::int as n from experiments where flow_id = ${flow.flowId} and status = 'running'`);
    expect(n).toBe(1);
  });

  it('the partial unique index is the backstop: a second running row for a flow cannot be inserted', async () => {
    const flow = await sandboxFlow();
    const exp = await started(flow.flowId);
    await expect(
      app.services.database.db.execute(
        sql`insert into experiments (id, tenant_id, livemode, flow_id, name, status, split_basis_points, overrides, created_by, started_at, created_at)
            select 'exp_01jzzzzzzzzzzzzzzzzzzzzzzz', tenant_id, livemode, flow_id, 'dup', 'running', 5000, '[]', created_by, now(), now() from experiments where id = ${exp.id}`,
      ),
    ).rejects.toThrow();
  });

  it('an archived flow: 409 flow_archived', async () => {
    const flow = await sandboxFlow();
    expect((await app.request('POST', `/v1/flows/${flow.flowId}/archive`, { key: a.sandboxKey, body: {} })).status).toBe(200);
    expectEnvelope(await create(a.sandboxKey, flow.flowId, { name: 'x', splitPct: 50, overrides: [] }), 409, 'conflict', 'flow_archived');
  });

  describe('bad bodies → 400 naming the field, nothing created', () => {
    const order = (ids: string[]) => [{ stepId: '$flow', blocks: { order: ids } }];
    it.each([
      ['an override on a missing step', { overrides: [{ stepId: 'pricing', blocks: { headline: 'x' } }] }, 'overrides.0.stepId', 'unknown_step', 'pricing'],
      ['an override on a medical step', { overrides: [...COPY, { stepId: 'body', blocks: { title: 'x' } }] }, 'overrides.1.stepId', 'clinical_step', "'body'"],
      ['an override on the consent step', { overrides: [{ stepId: 'consent', blocks: { text: 'I agree to anything' } }] }, 'overrides.0.stepId', 'clinical_step', "'consent'"],
      ['an override on the contact step', { overrides: [{ stepId: 'contact', blocks: { title: 'x' } }] }, 'overrides.0.stepId', 'clinical_step', "'contact'"],
      ['an empty headline', { overrides: [{ stepId: 'welcome', blocks: { headline: '' } }] }, 'overrides.0.blocks.headline', 'invalid_flow', undefined],
      ['a block the step kind does not have', { overrides: [{ stepId: 'welcome', blocks: { questions: [] } }] }, 'overrides.0.blocks.questions', 'invalid_flow', undefined],
      ['clearing a required block', { overrides: [{ stepId: 'result', blocks: { eligibleTitle: null } }] }, 'overrides.0.blocks.eligibleTitle', 'invalid_flow', undefined],
      ['the same step twice', { overrides: [...COPY, ...COPY] }, 'overrides.1.stepId', 'duplicate_override', undefined],
      ['a theme value with url()', { overrides: [{ stepId: '$flow', blocks: { theme: { primary: 'url(x)' } } }] }, 'overrides.0.blocks.theme.primary', 'invalid_override', undefined],
      ['an unknown theme token', { overrides: [{ stepId: '$flow', blocks: { theme: { shadow: '1px' } } }] }, 'overrides.0.blocks.theme.shadow', 'invalid_override', undefined],
      ['$flow with a field it does not take', { overrides: [{ stepId: '$flow', blocks: { steps: [] } }] }, 'overrides.0.blocks.steps', 'invalid_override', undefined],
      ['an order moving a clinical step', { overrides: order(['goals', 'body', 'welcome', 'result']) }, 'overrides.0.blocks.order', 'clinical_step', "'body'"],
      ['an order missing a presentation step', { overrides: order(['goals', 'welcome']) }, 'overrides.0.blocks.order', 'invalid_override', "'result'"],
      ['an order naming a step twice', { overrides: order(['goals', 'goals', 'welcome', 'result']) }, 'overrides.0.blocks.order', 'invalid_override', undefined],
      ['an order naming an unknown step', { overrides: order(['goals', 'welcome', 'result', 'extra']) }, 'overrides.0.blocks.order', 'unknown_step', undefined],
      ['an order putting the outcome before the end', { overrides: order(['result', 'goals', 'welcome']) }, 'overrides.0.blocks.order', 'invalid_override', 'outcome'],
      ['two $flow overrides', { overrides: [{ stepId: '$flow', blocks: {} }, { stepId: '$flow', blocks: {} }] }, 'overrides.1.stepId', 'duplicate_override', undefined],
      ['a split above 100', { splitPct: 101 }, 'splitPct', undefined, undefined],
      ['a negative split', { splitPct: -1 }, 'splitPct', undefined, undefined],
      ['a split finer than a basis point', { splitPct: 33.333 }, 'splitPct', undefined, undefined],
      ['a split as a string', { splitPct: '50' }, 'splitPct', undefined, undefined],
      ['no name', { name: undefined }, 'name', undefined, undefined],
      ['overrides not an array', { overrides: { stepId: 'welcome' } }, 'overrides', undefined, undefined],
      ['an unknown field', { winner: 'variant' }, undefined, undefined, undefined],
    ])('%s', async (_name, change, param, code, inMessage) => {
      const flow = await sandboxFlow();
      const before = await countRows(app, 'experiments');
      const res = await create(a.sandboxKey, flow.flowId, { name: 'Test', splitPct: 50, overrides: COPY, ...change });
      expectEnvelope(res, 400, 'validation_error', code);
      if (param) expect(res.body.error.param).toBe(param);
      if (inMessage) expect(res.body.error.message).toContain(inMessage);
      expect(await countRows(app, 'experiments')).toBe(before);
    });
  });

  it('the theme and order overrides that are allowed: tokens set and cleared, presentation steps permuted', async () => {
    const flow = await sandboxFlow();
    const exp = await started(flow.flowId, {
      name: 'Theme',
      splitPct: 50,
      overrides: [{ stepId: '$flow', blocks: { theme: { primary: '#1d4ed8', radius: null }, order: ['goals', 'welcome', 'result'] } }, ...COPY],
    });
    expect(exp.overrides).toHaveLength(2);
  });
});

describe('tenancy, mode and permissions', () => {
  it("another tenant's flow or experiment, and the other mode's → 404 everywhere", async () => {
    const mine = await sandboxFlow();
    const exp = await started(mine.flowId);
    const theirs = await publishedFlow(app, { tenantId: b.tenantId, livemode: false }, qOther, weightFlowDocument(KEY));
    const liveFlow = await publishedFlow(app, { tenantId: a.tenantId, livemode: true }, qLive, weightFlowDocument(KEY));
    const before = await countRows(app, 'experiments');
    for (const [key, flowId] of [
      [b.sandboxKey, mine.flowId],
      [a.liveKey, mine.flowId],
      [a.sandboxKey, theirs.flowId],
      [a.sandboxKey, liveFlow.flowId],
    ]) {
      expectEnvelope(await create(key, flowId, { name: 'x', splitPct: 50, overrides: [] }), 404, 'not_found');
      expectEnvelope(await list(key, flowId), 404, 'not_found');
    }
    for (const key of [b.sandboxKey, a.liveKey]) {
      expectEnvelope(await stop(key, exp.id), 404, 'not_found');
      expectEnvelope(await foldIn(key, exp.id), 404, 'not_found');
    }
    expectEnvelope(await stop(a.sandboxKey, 'exp_01jzzzzzzzzzzzzzzzzzzzzzzz'), 404, 'not_found');
    expect(await countRows(app, 'experiments')).toBe(before);
    const [row] = await rows(sql`select status from experiments where id = ${exp.id}`);
    expect(row.status).toBe('running');
  });

  it('reads need FLOWS_ANALYTICS_VIEW; create, stop and fold-in also need flows.manage (27a); refusals write nothing', async () => {
    const flow = await sandboxFlow();
    const experiments = () => countRows(app, 'experiments');
    const before = await experiments();
    const none = await restrictedKey(['orders.read']);
    expectEnvelope(await create(none, flow.flowId, { name: 'x', splitPct: 50, overrides: [] }), 403, 'permission_error', 'missing_scope');
    expectEnvelope(await list(none, flow.flowId), 403, 'permission_error', 'missing_scope');

    // The analytics scope alone reads, but cannot start a 100% experiment that rewrites the landing copy.
    const analyst = await restrictedKey(['FLOWS_ANALYTICS_VIEW']);
    const refused = await create(analyst, flow.flowId, { name: 'Takeover', splitPct: 100, overrides: COPY });
    expectEnvelope(refused, 403, 'permission_error', 'missing_scope');
    expect(refused.body.error.message).toContain('flows.manage');
    expect((await list(analyst, flow.flowId)).status).toBe(200);
    expect((await app.request('GET', `/v1/flows/${flow.flowId}/stats`, { key: analyst })).status).toBe(200);
    const manager = await restrictedKey(['flows.manage']);
    expectEnvelope(await create(manager, flow.flowId, { name: 'x', splitPct: 50, overrides: COPY }), 403, 'permission_error', 'missing_scope');
    expect(await experiments()).toBe(before);

    const both = await restrictedKey(['FLOWS_ANALYTICS_VIEW', 'flows.manage']);
    const exp = await create(both, flow.flowId, { name: 'Both', splitPct: 50, overrides: COPY });
    expect(exp.status, exp.text).toBe(201);
    expect((await list(analyst, flow.flowId)).body[0]).toMatchObject({ id: exp.body.id, status: 'running' });
    expectEnvelope(await stop(none, exp.body.id), 403, 'permission_error', 'missing_scope');
    expectEnvelope(await stop(analyst, exp.body.id), 403, 'permission_error', 'missing_scope');
    const [still] = await rows(sql`select status from experiments where id = ${exp.body.id}`);
    expect(still.status).toBe('running');
    expect((await stop(both, exp.body.id)).body).toEqual({ ok: true });
    expectEnvelope(await foldIn(analyst, exp.body.id), 403, 'permission_error', 'missing_scope');
    expectEnvelope(await foldIn(manager, exp.body.id), 403, 'permission_error', 'missing_scope');
    expect((await foldIn(both, exp.body.id)).status).toBe(200);
  });

  it('a provider reads experiments but cannot start or stop one (their role has no flows.manage)', async () => {
    const flow = await sandboxFlow();
    const provider = await providerSession(app, a.tenantId, ['CA']);
    const headers = { 'x-mode': 'sandbox' };
    const asProvider = (method: string, path: string, body?: unknown) => app.request(method, path, { key: provider.token, body, headers });
    expect((await asProvider('GET', `/v1/flows/${flow.flowId}/experiments`)).status).toBe(200);
    const before = await countRows(app, 'experiments');
    expectEnvelope(await asProvider('POST', `/v1/flows/${flow.flowId}/experiments`, { name: 'Dr', splitPct: 100, overrides: COPY }), 403, 'permission_error', 'missing_scope');
    expect(await countRows(app, 'experiments')).toBe(before);
    const exp = await started(flow.flowId);
    expectEnvelope(await asProvider('POST', `/v1/flows/experiments/${exp.id}/stop`, {}), 403, 'permission_error', 'missing_scope');
  });
});

describe('POST /flows/experiments/{expId}/stop', () => {
  it('records the winner and promotes nothing; a second stop changes nothing; then a new experiment may start', async () => {
    const flow = await sandboxFlow();
    const exp = await started(flow.flowId);
    expectEnvelope(await stop(a.sandboxKey, exp.id, { winnerVariant: 'blue' }), 400, 'validation_error');
    expectEnvelope(await stop(a.sandboxKey, exp.id, { winnerVariant: 'variant', extra: 1 }), 400, 'validation_error');
    const [still] = await rows(sql`select status, winner_variant from experiments where id = ${exp.id}`);
    expect(still).toEqual({ status: 'running', winner_variant: null });

    const res = await stop(a.sandboxKey, exp.id, { winnerVariant: 'variant' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const [first] = (await list(a.sandboxKey, flow.flowId)).body;
    expect(first).toMatchObject({ status: 'stopped', winnerVariant: 'variant' });
    expect(first.stoppedAt).not.toBeNull();

    const again = await stop(a.sandboxKey, exp.id, { winnerVariant: 'control' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ok: true });
    const [second] = (await list(a.sandboxKey, flow.flowId)).body;
    expect(second).toEqual(first);

    // Nothing promoted: the flow's draft and active version are as they were.
    const got = await app.request('GET', `/v1/flows/${flow.flowId}`, { key: a.sandboxKey });
    expect(got.body.draft.steps[0].blocks.headline).toBe('Lose weight with a clinician');
    expect(got.body.activeVersion.id).toBe(flow.versionId);
    await started(flow.flowId, { name: 'Next', splitPct: 50, overrides: [] });
  });
});

describe('POST /flows/experiments/{expId}/fold-in', () => {
  it("copies the stopped variant's overrides into the draft; publishing it is copy-only and so published at once", async () => {
    const flow = await sandboxFlow();
    const overrides = [{ stepId: '$flow', blocks: { theme: { primary: '#1d4ed8', radius: null }, order: ['goals', 'welcome', 'result'] } }, ...COPY];
    const exp = await started(flow.flowId, { name: 'Fold', splitPct: 50, overrides });
    expectEnvelope(await foldIn(a.sandboxKey, exp.id), 409, 'conflict', 'experiment_running');
    await stop(a.sandboxKey, exp.id, { winnerVariant: 'variant' });
    const draftBefore = await rows(sql`select draft, updated_at from flows where id = ${flow.flowId}`);
    expectEnvelope(await app.request('POST', `/v1/flows/experiments/${exp.id}/fold-in`, { key: a.sandboxKey, body: { force: true } }), 400, 'validation_error');
    expect(await rows(sql`select draft, updated_at from flows where id = ${flow.flowId}`)).toEqual(draftBefore);
    expectEnvelope(await list(a.sandboxKey, flow.flowId, '?limit=0'), 400, 'validation_error');

    const res = await foldIn(a.sandboxKey, exp.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.experiment).toMatchObject({ id: exp.id, status: 'stopped' });
    expect(res.body.experiment.foldedInAt).not.toBeNull();
    const draft = res.body.flow.draft;
    expect(draft.steps.map((s: { id: string }) => s.id)).toEqual(['goals', 'welcome', 'body', 'history', 'consent', 'contact', 'result']);
    expect(draft.steps[1].blocks).toEqual({ headline: 'Feel better, with a clinician', body: 'Answer a few questions.', cta: 'Check eligibility' });
    expect(draft.theme.tokens).toEqual({ primary: '#1d4ed8' });
    expect(res.body.flow.draftClinicalPlaneHash).toBe(flow.clinicalPlaneHash);
    // Folding in again gives the same draft.
    expect((await foldIn(a.sandboxKey, exp.id)).body.flow.draft).toEqual(draft);

    const published = await app.request('POST', `/v1/flows/${flow.flowId}/publish`, { key: a.sandboxKey, body: {} });
    expect(published.status, published.text).toBe(200);
    expect(published.body).toMatchObject({ status: 'published', version: { number: 2, clinicalPlaneHash: flow.clinicalPlaneHash, approvedHere: false } });
    const def = await app.request('GET', `/v1/public/flows/${flow.embedKey}`, { headers: { origin: 'https://clinic.example' } });
    expect(def.body.steps[1].blocks.headline).toBe('Feel better, with a clinician');
    expect(def.body.theme.cssVariables).toEqual({ '--nl-flow-primary': '#1d4ed8' });
  });

  it('a draft the overrides no longer fit → 409 draft_changed, nothing saved', async () => {
    const flow = await sandboxFlow();
    const exp = await started(flow.flowId);
    await stop(a.sandboxKey, exp.id);
    const doc = weightFlowDocument(KEY);
    doc.steps = doc.steps.filter((s) => s.id !== 'welcome');
    expect((await app.request('PATCH', `/v1/flows/${flow.flowId}`, { key: a.sandboxKey, body: { document: doc } })).status).toBe(200);
    const before = await rows(sql`select draft, updated_at from flows where id = ${flow.flowId}`);
    expectEnvelope(await foldIn(a.sandboxKey, exp.id), 409, 'conflict', 'draft_changed');
    expect(await rows(sql`select draft, updated_at from flows where id = ${flow.flowId}`)).toEqual(before);
    const [row] = await rows(sql`select folded_in_at from experiments where id = ${exp.id}`);
    expect(row.folded_in_at).toBeNull();
  });
});
