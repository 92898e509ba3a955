import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { starterDocument } from '@/components/console/flows/starter-document';
import { createTenantWithKeys, startTestApp, type Clinic, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, weightDocument } from './helpers/intake-world';

/**
 * Issue 50, item 5: a flow made by the console's create form (its starter document, sent over HTTP) greets the
 * patient with patient-facing copy, never the flow's internal name.
 */

let app: TestApp;
let clinic: Clinic;
beforeAll(async () => {
  app = await startTestApp();
  clinic = await createTenantWithKeys(app);
});
afterAll(async () => app?.close());

async function createAndRead(name: string, questionnaire: { key: string; title: string; items: { linkId: string }[] }) {
  await approvedQuestionnaire(app, { tenantId: clinic.tenantId, livemode: false }, { ...weightDocument(questionnaire.key), title: questionnaire.title });
  const document = starterDocument(questionnaire, questionnaire.items.map((i) => i.linkId));
  const created = await app.request('POST', '/v1/flows', { key: clinic.sandboxKey, body: { name, document } });
  expect(created.status, created.text).toBe(201);
  const read = await app.request('GET', `/v1/flows/${created.body.id}`, { key: clinic.sandboxKey });
  expect(read.status, read.text).toBe(200);
  expect(read.body.name).toBe(name);
  return read.body.draft.steps.find((s: { kind: string }) => s.kind === 'landing').blocks as { headline: string; body?: string; cta?: string };
}

describe('a new flow’s landing page', () => {
  it('does not use the internal name as the headline: the weight questionnaire gets the weight copy', async () => {
    const q = weightDocument('weight-q3');
    const landing = await createAndRead('Q3 test internal', { key: q.key, title: q.title, items: q.items });
    expect(landing.headline).not.toContain('Q3 test internal');
    expect(landing.headline).toBe('Lose weight with a plan built around you');
    expect(landing.cta).toBeTruthy();
  });

  it('a questionnaire of no known topic gets a neutral line, still not the name', async () => {
    const q = weightDocument('intake-misc');
    const landing = await createAndRead('Q3 test internal (misc)', { key: q.key, title: 'New patient intake', items: q.items });
    expect(landing.headline).not.toContain('Q3 test internal');
    expect(landing.headline).toBe('See a licensed provider online');
  });
});
