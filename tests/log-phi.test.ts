import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, startTestApp, type TestApp } from './helpers/harness';
import { captureLogs } from './helpers/logs';
import { ordersWorld } from './helpers/orders-world';

/**
 * A database statement that fails must not put its values in the log: the driver's message lists every
 * parameter and PostgreSQL's detail quotes the failing row. The database is made to refuse rows carrying
 * planted values (a CHECK constraint added by the test, so no fault hook exists in the service), the
 * writes are made over HTTP, and the whole log is searched for the planted values.
 */

const PLANTED = {
  firstName: 'Xerxesplanted',
  lastName: 'Zqplantedlast',
  email: 'zq.planted@phi-mail.test',
  dateOfBirth: '1961-03-14',
  phone: '+14155550163',
  line1: '77 Plantedroad Way',
  medication: 'Plantedmed 40 mg nightly',
  allergy: 'Plantedallergen dust',
  sig: 'Plantedsig inject thrice',
  foreignOrderId: 'zq-planted-order-77',
};

let app: TestApp;
let w: Awaited<ReturnType<typeof ordersWorld>>;
let logs: ReturnType<typeof captureLogs>;
beforeAll(async () => {
  app = await startTestApp();
  w = await ordersWorld(app, 'Log PHI');
  const refuse = (table: string, check: string) => app.services.database.db.execute(sql.raw(`alter table ${table} add constraint fr_test_refuse_planted check (${check})`));
  await refuse('patients', `last_name not like 'Zq%'`);
  await refuse('orders', `foreign_order_id is null or foreign_order_id not like 'zq-%'`);
  logs = captureLogs();
});
afterAll(async () => {
  logs?.restore();
  await app?.close();
});

const patientBody = {
  firstName: PLANTED.firstName,
  lastName: PLANTED.lastName,
  dateOfBirth: PLANTED.dateOfBirth,
  sex: 'female',
  email: PLANTED.email,
  phone: PLANTED.phone,
  address: { line1: PLANTED.line1, city: 'Town', state: 'CA', postalCode: '90001' },
  medications: [PLANTED.medication],
  allergies: [PLANTED.allergy],
};

function expectFailureLoggedWithoutValues(requestId: string, statement: RegExp, from: number) {
  const failure = logs.records().find((r) => r.requestId === requestId);
  expect(failure, 'the failure is logged').toBeDefined();
  expect(failure!.err).toMatchObject({ kind: 'database', code: '23514' });
  expect(failure!.err.statement).toMatch(statement);
  const text = logs.text(from);
  for (const [field, value] of Object.entries(PLANTED)) expect(text, `${field} in the log`).not.toContain(value);
  for (const fragment of ['Plantedmed', 'Plantedroad', 'Xerxes', 'zq.planted', '1961', '4155550163', 'Failing row', 'params']) expect(text).not.toContain(fragment);
}

describe('a failing database statement in the log', () => {
  it('POST /patients: logged by statement and SQLSTATE only', async () => {
    const from = logs.count();
    const res = await app.request('POST', '/v1/patients', { key: w.key, body: patientBody });
    expectEnvelope(res, 500, 'api_error', 'internal_error');
    expectFailureLoggedWithoutValues(res.body.error.request_id, /patients/, from);
  });

  it('PATCH /patients/{id}: logged by statement and SQLSTATE only', async () => {
    const { lastName: _, ...rest } = patientBody;
    const made = await app.request('POST', '/v1/patients', { key: w.key, body: { ...rest, lastName: 'Ordinary' } });
    expect(made.status).toBe(201);
    const from = logs.count();
    const res = await app.request('PATCH', `/v1/patients/${made.body.id}`, { key: w.key, body: { lastName: PLANTED.lastName, medications: [PLANTED.medication] } });
    expectEnvelope(res, 500, 'api_error', 'internal_error');
    expectFailureLoggedWithoutValues(res.body.error.request_id, /patients/, from);
  });

  it('POST /orders: logged by statement and SQLSTATE only', async () => {
    const from = logs.count();
    const res = await w.create({ foreignOrderId: PLANTED.foreignOrderId, items: [{ productId: w.products.glp, quantity: 1, sig: PLANTED.sig }] });
    expectEnvelope(res, 500, 'api_error', 'internal_error');
    expectFailureLoggedWithoutValues(res.body.error.request_id, /orders/, from);
  });
});

describe('strings in the log', () => {
  it('are scrubbed in messages and values as well as redacted by key', async () => {
    const { logger } = await import('@/server/lib/logger');
    const from = logs.count();
    logger.warn(
      { detail: `Key (email)=(${PLANTED.email}) already exists`, note: `row for ${PLANTED.dateOfBirth}`, firstName: PLANTED.firstName, nested: { link: 'https://x.test/login/magic?token=zqsecret' } },
      `lookup failed: params: ${PLANTED.lastName},${PLANTED.phone}`,
    );
    logger.info(`sent to ${PLANTED.email}: https://x.test/invite?token=zqsecret2`);
    const text = logs.text(from);
    expect(text).toContain('lookup failed');
    for (const value of [PLANTED.email, PLANTED.dateOfBirth, PLANTED.firstName, PLANTED.lastName, PLANTED.phone, 'zqsecret']) expect(text).not.toContain(value);
  });
});
