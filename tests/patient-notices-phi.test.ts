import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query, sendCallback } from './helpers/dispatch';
import { readOutbox, startTestApp, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, eligibleAnswers, weightDocument } from './helpers/intake-world';
import { noticesSettled, readSmsOutbox } from './helpers/notices';
import { ordersWorld } from './helpers/orders-world';

/*
 * Minimum necessary (DESIGN decision 41): a patient whose name, answers, medication, condition, date of birth and
 * address are distinctive strings goes through every milestone on both channels; no e-mail, text message or stored
 * notice carries any of them, nor does the job queue.
 */

const PLANTED = {
  firstName: 'Zebulonius',
  lastName: 'Quackenbushwick',
  dateOfBirth: '1961-03-17',
  line1: '77 Xylophonica Lane',
  line2: 'Suite Vermillionaire',
  city: 'Quokkaburgh',
  postalCode: '94107',
  phone: '+14155550199',
  email: 'p1@notice-phi.test',
  // An answer (the medications the patient takes), a medication on the chart, a condition in the order's sig.
  answer: 'Zyzzyvamab-answered daily',
  medication: 'Qwertonium 40 mg',
  condition: 'Blorfendale syndrome',
  allergy: 'Snargleberry',
};
// Every form of the date of birth a template could print.
const DOB_FORMS = ['1961-03-17', '03/17/1961', '17/03/1961', 'March 17', '1961'];

let app: TestApp;
let smsDir: string;
let w: Awaited<ReturnType<typeof ordersWorld>>;

beforeAll(async () => {
  smsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-sms-phi-'));
  app = await startTestApp({ RUN_WORKER: 'true', WORKER_POLL_MS: '50', PUBLIC_URL: 'https://rail.example.test', SMS_OUTBOX_DIR: smsDir });
  w = await ordersWorld(app, 'Northside Clinic', { mode: 'live' });
  // Every milestone on both channels.
  const all = { email: true, sms: true };
  const on = await app.request('PATCH', '/v1/notices/settings', {
    key: w.key,
    body: { milestones: { submission_received: all, order_sent: all, order_shipped: all, order_delivered: all, needs_attention: all }, supportContact: 'care@northside.example' },
  });
  expect(on.status).toBe(200);
});
afterAll(async () => app?.close());

async function pharmacySays(orderId: string, status: string, extra: Record<string, unknown> = {}) {
  const [d] = await query<{ idempotency_key: string; connection_id: string }>(app, sql`select idempotency_key, connection_id from order_dispatches where order_id = ${orderId} order by round desc limit 1`);
  const secret = d.connection_id === w.pharmacies.alpha ? w.pharmacies.alphaSecret : w.pharmacies.betaSecret;
  const res = await sendCallback(app, d.connection_id, secret, { idempotencyKey: d.idempotency_key, status, ...extra });
  expect(res.body.outcome).toBe('applied');
}

describe('every notice of a planted patient', () => {
  it('names the clinic, the milestone and the portal, and nothing about the person or the medicine', async () => {
    // Submission received: public intake, live, with SMS consent; the answers hold a planted medication.
    await approvedQuestionnaire(app, { tenantId: w.tenantId, livemode: true }, weightDocument('weight'));
    const embed = (await app.request('POST', '/v1/embed-keys', { key: w.key, body: { allowedOrigins: ['https://northside.example'] } })).body.id as string;
    const submitted = await app.request('POST', `/v1/public/intake/${embed}/submissions`, {
      idempotencyKey: randomUUID(),
      headers: { origin: 'https://northside.example' },
      body: {
        questionnaireKey: 'weight',
        patient: {
          name: `${PLANTED.firstName} ${PLANTED.lastName}`,
          email: PLANTED.email,
          dateOfBirth: PLANTED.dateOfBirth,
          state: 'CA',
          phone: PLANTED.phone,
          smsConsent: true,
          address: { line1: PLANTED.line1, line2: PLANTED.line2, city: PLANTED.city, postalCode: PLANTED.postalCode },
        },
        answers: eligibleAnswers({ dob: PLANTED.dateOfBirth, takesMeds: true, meds: PLANTED.answer }),
      },
    });
    expect(submitted.status).toBe(201);
    const [{ patient_id: patientId }] = await query<{ patient_id: string }>(app, sql`select patient_id from intake_submissions where id = ${submitted.body.submissionId}`);
    await app.services.database.db.execute(sql`update patients set medications = ${JSON.stringify([PLANTED.medication])}::jsonb, allergies = ${JSON.stringify([PLANTED.allergy])}::jsonb where id = ${patientId}`);

    // Orders for that patient: one through sent, shipped and delivered; one rejected; one cancelled.
    const order = async () => {
      const created = await w.create({ patientId, items: [{ productId: w.products.glp, quantity: 1, sig: `Take one daily for ${PLANTED.condition}` }] });
      expect(created.status).toBe(201);
      expect((await w.approve(created.body.id)).status).toBe(201);
      return created.body.id as string;
    };
    const delivered = await order();
    await pharmacySays(delivered, 'shipped', { tracking: { carrier: 'UPS', number: '1Z999AA10123456784', url: 'https://www.ups.com/track?tracknum=1Z999AA10123456784' } });
    await pharmacySays(delivered, 'delivered');
    const rejected = await order();
    await pharmacySays(rejected, 'rejected', { reasonCode: 'out_of_stock' });
    const cancelled = await order();
    expect((await w.act(cancelled, 'cancel')).status).toBe(201);

    await noticesSettled(app, submitted.body.submissionId, 2);
    await noticesSettled(app, delivered, 6);
    await noticesSettled(app, rejected, 4);
    await noticesSettled(app, cancelled, 4);

    const mail = readOutbox(app).filter((m) => m.to === PLANTED.email);
    const sms = readSmsOutbox(smsDir).filter((m) => m.to === PLANTED.phone);
    // Every milestone reached on both channels: received, sent ×3, shipped, delivered, rejected, cancelled.
    expect(mail).toHaveLength(8);
    expect(sms).toHaveLength(8);
    const stored = await query<{ subject: string | null; body: string | null; last_error: string | null }>(app, sql`select subject, body, last_error from patient_notices`);
    const jobs = await query<{ payload: unknown; last_error: string | null }>(app, sql`select payload, last_error from jobs`);
    const events = await query<{ data: unknown }>(app, sql`select data from events`);
    const haystacks = [
      ...mail.map((m) => JSON.stringify(m)),
      ...sms.map((m) => JSON.stringify(m)),
      ...stored.map((r) => JSON.stringify(r)),
      ...jobs.map((j) => JSON.stringify(j)),
      ...events.map((e) => JSON.stringify(e)),
    ];
    const planted = [
      PLANTED.firstName,
      PLANTED.lastName,
      PLANTED.line1,
      PLANTED.line2,
      PLANTED.city,
      PLANTED.postalCode,
      'Zyzzyvamab',
      'Qwertonium',
      'Blorfendale',
      PLANTED.allergy,
      'Product GLP',
      ...DOB_FORMS,
    ];
    for (const hay of haystacks) for (const s of planted) expect(hay.toLowerCase(), `"${s}" in ${hay.slice(0, 200)}`).not.toContain(s.toLowerCase());

    // What they do carry: the clinic, the milestone, the portal of the key the patient came through, an opt-out link.
    for (const m of [...mail.map((x) => `${x.subject}\n${x.text}`), ...sms.map((x) => x.text)]) {
      expect(m).toContain('Northside Clinic');
      expect(m).toContain(`https://rail.example.test/p/${embed}`);
      expect(m).toMatch(/https:\/\/rail\.example\.test\/unsubscribe\?token=[\w-]+\.[\w-]+/);
    }
    expect(mail.map((m) => m.subject).sort()).toEqual(
      [
        'Northside Clinic: We received your request',
        'Northside Clinic: Your order was sent to the pharmacy',
        'Northside Clinic: Your order was sent to the pharmacy',
        'Northside Clinic: Your order was sent to the pharmacy',
        'Northside Clinic: Your order has shipped',
        'Northside Clinic: Your order was delivered',
        'Northside Clinic: Your order needs attention',
        'Northside Clinic: Your order was cancelled',
      ].sort(),
    );
  });
});
