import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT, flowClient, weightRunAnswers } from './helpers/flow-run';
import { publishedFlow, weightFlowDocument } from './helpers/flow-world';
import { countRows, createTenantWithKeys, expectEnvelope, startTestApp, type Clinic, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, eligibleAnswers, weightDocument } from './helpers/intake-world';

/*
 * The reference a patient reads on the outcome page (issue 33 item 5; docs/decisions/intake.md, "The patient reference"): every
 * recorded run (flow, public intake, hosted link) answers a short reference that is not an id and holds no
 * PHI, and staff find the submission by it: GET /intake/submissions?reference=, as typed from a phone call.
 */

const KEY = 'weight';
const ORIGIN = 'https://clinic.example';
const REFERENCE = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

let app: TestApp;
let a: Clinic;
let b: Clinic;
let embedKey: string;
let q: Awaited<ReturnType<typeof approvedQuestionnaire>>;

const find = (reference: string, key = a.sandboxKey, sandbox = 'true') =>
  app.request('GET', `/v1/intake/submissions?status=all&sandbox=${sandbox}&reference=${encodeURIComponent(reference)}`, { key });

/** The reference as a caller reads it out: lower case, no dash, spaces. */
const spoken = (reference: string) => `${reference.slice(0, 4).toLowerCase()} ${reference.slice(5)}`;

beforeAll(async () => {
  app = await startTestApp({ PUBLIC_URL: 'https://rail.example.test', EMBED_RATE_LIMIT: '100000' });
  a = await createTenantWithKeys(app, 'Reference Clinic');
  b = await createTenantWithKeys(app, 'Other Clinic');
  q = await approvedQuestionnaire(app, { tenantId: a.tenantId, livemode: false }, weightDocument(KEY));
  embedKey = (await publishedFlow(app, { tenantId: a.tenantId, livemode: false }, q, weightFlowDocument(KEY))).embedKey;
});
afterAll(async () => {
  await app?.close();
});

describe('flow submit', () => {
  it('answers a short reference (not the id, no PHI) that staff find the submission by; the resumed session shows the same', async () => {
    const c = flowClient(app, embedKey, ORIGIN);
    const id = await c.started();
    await c.answerAll(id, weightRunAnswers());
    const res = await c.submit(id);
    expect(res.status, res.text).toBe(200);
    const { reference, submissionId } = res.body as { reference: string; submissionId: string };
    expect(reference).toMatch(REFERENCE);
    expect(submissionId.toUpperCase()).not.toContain(reference.replace('-', ''));
    for (const value of [CONTACT.name, CONTACT.email, CONTACT.dateOfBirth, 'Ada', 'Lovelace']) expect(reference).not.toContain(value.toUpperCase());

    const found = await find(spoken(reference));
    expect(found.status, found.text).toBe(200);
    expect(found.body).toHaveLength(1);
    expect(found.body[0]).toMatchObject({ id: submissionId, reference, source: 'flow', verdict: 'eligible' });
    const one = await app.request('GET', `/v1/intake/submissions/${submissionId}`, { key: a.sandboxKey });
    expect(one.body.reference).toBe(reference);

    const session = await c.session(id);
    expect(session.body.outcome).toMatchObject({ verdict: 'eligible', reference, patientMessages: [] });
  });

  it("a disqualified run: the reason once (the disqualifying rule's message) and a reference too", async () => {
    const c = flowClient(app, embedKey, ORIGIN);
    const id = await c.started();
    await c.answerAll(id, weightRunAnswers({ body: { dob: '1980-04-02', height: 150, weight: 120 }, history: { pregnant: true, takesMeds: false } }));
    const res = await c.submit(id);
    expect(res.body).toMatchObject({ verdict: 'disqualified', patientMessages: ['This treatment is not safe during pregnancy.'] });
    // The BMI review flag matched too, but no review will happen: it is not part of what the patient is told.
    expect(res.text).not.toContain('A clinician will look at your answers closely.');
    expect(res.body.reference).toMatch(REFERENCE);
    expect((await find(res.body.reference)).body[0]).toMatchObject({ id: res.body.submissionId, status: 'disqualified' });
  });
});

describe('public intake and hosted links', () => {
  it('both answer a reference findable by staff', async () => {
    const key = (await app.request('POST', '/v1/embed-keys', { key: a.sandboxKey, body: { allowedOrigins: [ORIGIN] } })).body.id as string;
    const pub = await app.request('POST', `/v1/public/intake/${key}/submissions`, {
      body: { questionnaireKey: KEY, patient: { name: 'Zed Quill', email: 'zed@example.org', state: 'CA' }, answers: eligibleAnswers() },
      idempotencyKey: randomUUID(),
      headers: { origin: ORIGIN },
    });
    expect(pub.status, pub.text).toBe(201);
    expect(pub.body.reference).toMatch(REFERENCE);
    expect((await find(pub.body.reference)).body.map((s: { id: string }) => s.id)).toEqual([pub.body.submissionId]);

    const patient = await app.request('POST', '/v1/patients', { key: a.sandboxKey, body: { firstName: 'Zed', lastName: 'Quill', dateOfBirth: '1979-03-14', sex: 'male', email: 'zed@example.org' } });
    const link = await app.request('POST', '/v1/intake/hosted-links', { key: a.sandboxKey, body: { patientId: patient.body.id, questionnaireKey: KEY } });
    const token = (link.body.url as string).split('/i/')[1];
    const hosted = await app.request('POST', `/v1/public/intake/hosted/${token}/submissions`, { body: { answers: eligibleAnswers() }, idempotencyKey: randomUUID() });
    expect(hosted.status, hosted.text).toBe(201);
    expect(hosted.body.reference).toMatch(REFERENCE);
    const found = await find(hosted.body.reference);
    expect(found.body).toHaveLength(1);
    expect(found.body[0]).toMatchObject({ source: 'hosted', patientId: patient.body.id, reference: hosted.body.reference });
  });
});

describe('GET /intake/submissions?reference=', () => {
  it("another clinic or mode finds nothing; a reference that cannot be one → 400 naming it, nothing written", async () => {
    const c = flowClient(app, embedKey, ORIGIN);
    const id = await c.started();
    await c.answerAll(id, weightRunAnswers());
    const { reference } = (await c.submit(id)).body as { reference: string };
    expect((await find(reference, b.sandboxKey)).body).toEqual([]);
    expect((await find(reference, a.liveKey, 'false')).body).toEqual([]);
    const before = await countRows(app, 'events');
    for (const bad of ['ABC', 'ABCD-EFGH-JK', 'UUUU-UUUU', '<script>']) {
      const res = await find(bad);
      expectEnvelope(res, 400, 'validation_error');
      expect(res.body.error.param).toBe('reference');
    }
    expect(await countRows(app, 'events')).toBe(before);
  });
});

describe('the outcome step\'s links', () => {
  const withOutcome = (blocks: Record<string, unknown>) => {
    const doc = weightFlowDocument(KEY);
    const outcome = doc.steps[6] as { blocks: Record<string, unknown> };
    outcome.blocks = { ...outcome.blocks, ...blocks };
    return doc;
  };

  it('ctaUrl and disqualifiedUrl must be https pages; a "where to go instead" label needs its URL; nothing saved', async () => {
    const before = await countRows(app, 'flows');
    for (const [blocks, param] of [
      [{ cta: 'Next', ctaUrl: 'http://clinic.example/next' }, 'document.steps.6.blocks.ctaUrl'],
      [{ disqualifiedUrl: 'javascript:alert(1)' }, 'document.steps.6.blocks.disqualifiedUrl'],
      [{ disqualifiedCta: 'Find care near you' }, 'document.steps.6.blocks.disqualifiedUrl'],
    ] as const) {
      const res = await app.request('POST', '/v1/flows', { key: a.sandboxKey, body: { name: 'Links', document: withOutcome(blocks) } });
      expectEnvelope(res, 400, 'validation_error');
      expect(res.body.error.param).toBe(param);
    }
    expect(await countRows(app, 'flows')).toBe(before);
  });

  it('the patient-safe definition carries them to the outcome page', async () => {
    const links = { cta: 'What to expect', ctaUrl: 'https://clinic.example/next', disqualifiedCta: 'Find care near you', disqualifiedUrl: 'https://clinic.example/other' };
    const created = await app.request('POST', '/v1/flows', { key: a.sandboxKey, body: { name: 'Links', document: withOutcome(links) } });
    expect(created.status, created.text).toBe(201);
    const world = await publishedFlow(app, { tenantId: a.tenantId, livemode: false }, q, withOutcome(links));
    const def = await flowClient(app, world.embedKey, ORIGIN).definition();
    expect(def.body.steps.at(-1)).toMatchObject({ kind: 'outcome', blocks: links });
  });
});
