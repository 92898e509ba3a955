import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FlowDocument } from '@/server/domain/flows/flow-schema';
import { canonicalHash } from '@/server/lib/canonical';
import { US_STATE_OPTIONS } from '@/server/lib/us-states';
import { countRows, createTenantWithKeys, expectEnvelope, startTestApp, type Clinic, type TestApp } from './helpers/harness';
import { CONTACT, flowClient } from './helpers/flow-run';
import { publishedFlow } from './helpers/flow-world';
import { providerSession } from './helpers/orders-world';

/*
 * Issue 50 item 4, DESIGN decision 46: a multi_choice option may be `exclusive` ("None of these"). The document
 * keeps it through publication and approval and the patient view carries it; chosen with any other option it
 * is a 400 naming the item (`answers.<linkId>`), nothing written, on the public intake submission and on a
 * flow's step save alike (both through the engine's `checkAnswers`); chosen alone, or other options without
 * it, it is accepted. Only a multi_choice option may be exclusive.
 */

const ORIGIN = 'https://www.exclusive-clinic.example';
const KEY = 'conditions-check';

const document = {
  key: KEY,
  title: 'Conditions check',
  items: [
    { linkId: 'dob', text: 'Date of birth', type: 'date', required: true, fact: 'dateOfBirth' },
    { linkId: 'state', text: 'Which US state do you live in?', type: 'choice', required: true, options: US_STATE_OPTIONS, fact: 'state' },
    {
      linkId: 'conditions',
      text: 'Do you have any of these conditions?',
      type: 'multi_choice',
      required: true,
      options: [
        { value: 'htn', label: 'High blood pressure' },
        { value: 'dm2', label: 'Type 2 diabetes' },
        { value: 'none', label: 'None of these', exclusive: true },
      ],
    },
  ],
  rules: [{ id: 'minor', when: { q: 'age(dob)', op: 'lt', value: 18 }, effect: 'disqualify', patientMessage: 'This service is for adults.' }],
};

let app: TestApp;
let clinic: Clinic;
let embed: string;
let approved: { id: string; key: string; version: number; contentHash: string };

const rows = async (query: ReturnType<typeof sql>) => ((await app.services.database.db.execute(query)) as unknown as { rows: Record<string, any>[] }).rows;

beforeAll(async () => {
  app = await startTestApp({ PUBLIC_URL: 'https://rail.example.test' });
  clinic = await createTenantWithKeys(app, 'Exclusive Clinic');
  const res = await app.request('POST', '/v1/embed-keys', { key: clinic.sandboxKey, body: { allowedOrigins: [ORIGIN] } });
  if (res.status !== 201) throw new Error(`embed key: ${res.status} ${res.text}`);
  embed = res.body.id as string;
});
afterAll(async () => app?.close());

describe('an exclusive option in the questionnaire document', () => {
  it('round-trips through publication and approval, and the patient view carries it on that option only', async () => {
    const published = await app.request('POST', '/v1/intake/questionnaires', { key: clinic.sandboxKey, body: document });
    expect(published.status, published.text).toBe(201);
    expect(published.body.document).toEqual(document);
    expect(published.body.contentHash).toBe(canonicalHash(document));
    const dr = await providerSession(app, clinic.tenantId, ['CA']);
    const approval = await app.request('POST', `/v1/intake/questionnaires/${published.body.id}/approve`, { key: dr.token, body: {} });
    expect(approval.status, approval.text).toBe(200);
    approved = { id: approval.body.id, key: KEY, version: approval.body.version, contentHash: approval.body.contentHash };

    const read = await app.request('GET', `/v1/intake/questionnaires/${KEY}`, { key: clinic.sandboxKey });
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({ status: 'approved', contentHash: canonicalHash(document) });
    expect(read.body.document.items[2].options).toEqual(document.items[2].options);

    const view = await app.request('GET', `/v1/public/intake/${embed}/questionnaires/${KEY}`, { headers: { origin: ORIGIN } });
    expect(view.status, view.text).toBe(200);
    const options = view.body.questionnaire.items.find((i: { linkId: string }) => i.linkId === 'conditions').options;
    expect(options).toEqual([
      { value: 'htn', label: 'High blood pressure' },
      { value: 'dm2', label: 'Type 2 diabetes' },
      { value: 'none', label: 'None of these', exclusive: true },
    ]);
    // The 52 states come as a plain choice; the page makes it a select (more than 8 options).
    const states = view.body.questionnaire.items.find((i: { linkId: string }) => i.linkId === 'state');
    expect(states).toMatchObject({ type: 'choice', fact: 'state' });
    expect(states.options).toHaveLength(52);
  });

  it('is refused on a single choice (a radio takes one answer already) and when not a boolean; nothing saved', async () => {
    const before = await countRows(app, 'questionnaires');
    const onChoice = structuredClone(document) as { key: string; items: { options?: Record<string, unknown>[] }[] };
    onChoice.key = 'exclusive-on-choice';
    onChoice.items[1]!.options![0]!.exclusive = true;
    const r1 = await app.request('POST', '/v1/intake/questionnaires', { key: clinic.sandboxKey, body: onChoice });
    expectEnvelope(r1, 400, 'validation_error');
    expect(r1.body.error.param).toBe('items.1.options.0.exclusive');
    expect(r1.body.error.message).toContain('"state"');

    const notBoolean = structuredClone(document) as { key: string; items: { options?: Record<string, unknown>[] }[] };
    notBoolean.key = 'exclusive-not-boolean';
    notBoolean.items[2]!.options![2]!.exclusive = 'yes';
    const r2 = await app.request('POST', '/v1/intake/questionnaires', { key: clinic.sandboxKey, body: notBoolean });
    expectEnvelope(r2, 400, 'validation_error');
    expect(r2.body.error.param).toBe('items.2.options.2.exclusive');
    expect(await countRows(app, 'questionnaires')).toBe(before);
  });
});

describe('public intake submissions', () => {
  const submit = (conditions: string[]) =>
    app.request('POST', `/v1/public/intake/${embed}/submissions`, {
      body: { questionnaireKey: KEY, patient: { name: 'Noor Haddad', email: 'noor@example.org', state: 'CA' }, answers: { dob: '1980-04-02', state: 'CA', conditions } },
      idempotencyKey: randomUUID(),
      headers: { origin: ORIGIN },
    });
  const written = async () => ({
    submissions: await countRows(app, 'intake_submissions'),
    answers: await countRows(app, 'intake_answers'),
    patients: await countRows(app, 'patients'),
    events: await countRows(app, 'events'),
  });

  it('"None of these" with another option → 400 naming the item, never the answer; nothing written', async () => {
    const before = await written();
    for (const conditions of [['htn', 'none'], ['none', 'dm2'], ['htn', 'dm2', 'none']]) {
      const res = await submit(conditions);
      expectEnvelope(res, 400, 'validation_error');
      expect(res.body.error.param).toBe('answers.conditions');
      expect(res.body.error.message).toContain('"conditions"');
      expect(res.body.error.message).toContain('exclusive');
      expect(res.text).not.toContain('htn');
    }
    expect(await written()).toEqual(before);
  });

  it('"None of these" alone, or other options without it, is accepted', async () => {
    for (const conditions of [['none'], ['htn', 'dm2'], ['dm2']]) {
      const res = await submit(conditions);
      expect(res.status, res.text).toBe(201);
      expect(res.body.verdict).toBe('eligible');
    }
  });
});

describe("a flow's step save", () => {
  const flowDocument: FlowDocument = {
    steps: [
      { id: 'welcome', kind: 'landing', blocks: { headline: 'A quick check', cta: 'Start' } },
      { id: 'about', kind: 'medical', title: 'About you', linkIds: ['dob', 'state', 'conditions'] },
      { id: 'consent', kind: 'consent', title: 'Consent', text: 'I agree to a telehealth review of my answers.', version: '2026-01' },
      { id: 'contact', kind: 'contact', title: 'Where to reach you' },
      { id: 'result', kind: 'outcome', blocks: { eligibleTitle: 'You may be eligible', eligibleBody: 'A clinician reviews.', disqualifiedTitle: 'Sorry', disqualifiedBody: 'See your doctor.' } },
    ],
    theme: { tokens: {} },
    settings: { questionnaireKey: KEY },
  };

  it('"None of these" with another option → 400 naming the item, nothing held or counted; alone → saved, and the run submits', async () => {
    const flow = await publishedFlow(app, { tenantId: clinic.tenantId, livemode: false }, approved, flowDocument, { allowedOrigins: [ORIGIN] });
    const client = flowClient(app, flow.embedKey, ORIGIN);
    const id = await client.started();
    await client.answerAll(id, [['welcome', {}]]);
    const held = async () => (await rows(sql`select steps from flow_session_answers where session_id = ${id}`))[0]?.steps ?? {};
    const before = { held: await held(), events: await countRows(app, 'events'), marks: await countRows(app, 'flow_session_marks') };

    const refused = await client.step(id, 'about', { dob: '1980-04-02', state: 'CA', conditions: ['htn', 'none'] });
    expectEnvelope(refused, 400, 'validation_error', 'invalid_answer');
    expect(refused.body.error.param).toBe('answers.conditions');
    expect(refused.body.error.message).toContain('"conditions"');
    expect({ held: await held(), events: await countRows(app, 'events'), marks: await countRows(app, 'flow_session_marks') }).toEqual(before);
    expect((await client.session(id)).body.nextStepId).toBe('about');

    const saved = await client.step(id, 'about', { dob: '1980-04-02', state: 'CA', conditions: ['none'] });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toEqual({ ok: true, nextStepId: 'consent' });
    // Saved again after going back: other options without "None of these" are accepted too.
    expect((await client.step(id, 'about', { dob: '1980-04-02', state: 'CA', conditions: ['htn', 'dm2'] })).status).toBe(200);
    await client.answerAll(id, [
      ['consent', { accepted: true, version: '2026-01' }],
      ['contact', CONTACT],
    ]);
    const submitted = await client.submit(id);
    expect(submitted.status, submitted.text).toBe(200);
    expect(submitted.body.verdict).toBe('eligible');
  });
});
