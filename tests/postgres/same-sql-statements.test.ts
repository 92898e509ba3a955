import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eligibleAnswerSets, fortyItemQuestionnaire } from '@/bench/intake-engine';
import { folded, RUN, RUN_REQUESTS, runShape, STATEMENTS, type RunRequest } from '@/bench/same-sql/statements';
import type { FlowDocument } from '@/server/domain/flows/flow-schema';
import { flowClient } from '../helpers/flow-run';
import { publishedFlow } from '../helpers/flow-world';
import { createTenantWithKeys, startTestApp, type ApiResponse, type TestApp } from '../helpers/harness';
import { approvedQuestionnaire } from '../helpers/intake-world';
import { captureStatements } from '../helpers/pg-statements';

/*
 * The flows bench compares the project with a same-SQL reference server (bench/same-sql-server.ts) that
 * replays the statements of bench/same-sql/statements.ts (issue 35, item 2). This holds the project to that
 * list: a patient run shaped as the bench's (live key, the 40-item questionnaire on one medical page, consent,
 * contact, submit with an Idempotency-Key) must send exactly those statements, request by request, in that
 * order. A change to the runtime's SQL fails here until the list (and the reference's values) follow it.
 */

const onPostgres = Boolean(process.env.DATABASE_URL);
const ORIGIN = 'https://clinic.example';
let app: TestApp;
let sent: string[] = [];
let restore: () => void = () => undefined;

describe.skipIf(!onPostgres)('the same-SQL reference of the flows bench (PostgreSQL)', () => {
  let c: ReturnType<typeof flowClient>;
  let answers: Record<string, unknown>;

  beforeAll(async () => {
    app = await startTestApp({ EMBED_RATE_LIMIT: '100000' });
    const clinic = await createTenantWithKeys(app, 'Same SQL');
    const questionnaire = { ...fortyItemQuestionnaire(), key: 'bench-flow' };
    answers = eligibleAnswerSets(questionnaire, 'same-sql test')[0];
    const scope = { tenantId: clinic.tenantId, livemode: true };
    const q = await approvedQuestionnaire(app, scope, questionnaire);
    const document: FlowDocument = {
      steps: [
        { id: 'health', kind: 'medical', title: 'Your health', linkIds: questionnaire.items.map((i) => i.linkId) },
        { id: 'consent', kind: 'consent', title: 'Consent', text: 'I agree to a telehealth review of my answers.', version: '2026-01' },
        { id: 'contact', kind: 'contact', title: 'Where to reach you' },
      ],
      theme: { tokens: { primary: '#0f766e' } },
      settings: { questionnaireKey: questionnaire.key },
    } as FlowDocument;
    const world = await publishedFlow(app, scope, q, document, { allowedOrigins: [ORIGIN] });
    c = flowClient(app, world.embedKey, ORIGIN);
    await run(0); // warms the process caches (pinned version, signing key), as any live server's are
    restore = captureStatements((statement) => sent.push(statement));
  });
  afterAll(async () => {
    restore();
    await app?.close();
  });

  /** One bench run; with `seen`, the statements of each request. */
  async function run(n: number, seen?: Partial<Record<RunRequest, string[]>>) {
    const email = `same-sql-${n}@example.com`;
    const requests: Record<RunRequest, (id: string) => Promise<ApiResponse>> = {
      session: () => c.start(),
      health: (id) => c.step(id, 'health', answers),
      consent: (id) => c.step(id, 'consent', { accepted: true, version: '2026-01' }),
      contact: (id) => c.step(id, 'contact', { name: 'Same Sql', email, state: 'CA', dateOfBirth: answers.dob }),
      submit: (id) => c.submit(id, { name: 'Same Sql', email }),
    };
    let id = '';
    for (const kind of RUN_REQUESTS) {
      sent = [];
      const res = await requests[kind](id);
      expect(res.status, `${kind}: ${res.text}`).toBe(kind === 'session' ? 201 : 200);
      if (kind === 'session') id = res.body.sessionId;
      if (kind === 'submit') expect(res.body).toMatchObject({ verdict: 'eligible', certificate: expect.any(String) });
      if (seen) seen[kind] = sent.map(folded);
    }
  }

  it('a run sends exactly the reference’s statements, request by request', async () => {
    const seen: Partial<Record<RunRequest, string[]>> = {};
    await run(1, seen);
    const expected = Object.fromEntries(RUN_REQUESTS.map((k) => [k, RUN[k].map((id) => folded(STATEMENTS[id]))]));
    // The counts first, so a drift reads plainly before the texts.
    expect(Object.fromEntries(RUN_REQUESTS.map((k) => [k, seen[k]?.length]))).toEqual(Object.fromEntries(RUN_REQUESTS.map((k) => [k, RUN[k].length])));
    expect(seen).toEqual(expected);
    expect(runShape()).toEqual(runShape(seen as Record<RunRequest, string[]>));
  });
});
