import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTICE_JOB } from '@/server/domain/notices/notice-jobs';
import { createWorker } from '@/server/jobs/worker';
import { query, sendCallback } from './helpers/dispatch';
import { startFakeTwilio, TWILIO_FROM, TWILIO_SID, TWILIO_TOKEN, type FakeTwilio } from './helpers/fake-twilio';
import { countRows, expectEnvelope, readOutbox, startTestApp, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, eligibleAnswers, weightDocument } from './helpers/intake-world';
import { noticesOf, noticesSettled, readSmsOutbox, unsubscribeLink } from './helpers/notices';
import { CONTACT, flowClient, weightRunAnswers } from './helpers/flow-run';
import { publishedFlow, weightFlowDocument } from './helpers/flow-world';
import { createUserAndLogin, createTenantWithKeys } from './helpers/harness';
import { ordersWorld } from './helpers/orders-world';

/*
 * Patient notices (DESIGN decision 41) over HTTP on both databases: each milestone produces its message once per
 * channel, whatever retries the triggering request gets; the clinic's switches and the patient's opt-out are read
 * when the worker sends; SMS only with consent; sandbox never leaves the machine; a failed notice is shown and
 * holds nothing up.
 */

const TRACKING = { carrier: 'FedEx', number: '771234567890', url: 'https://www.fedex.com/fedextrack/?trknbr=771234567890' };

let app: TestApp;
let twilio: FakeTwilio;
let smsDir: string;
let w: Awaited<ReturnType<typeof ordersWorld>>;

beforeAll(async () => {
  twilio = await startFakeTwilio();
  smsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-sms-'));
  app = await startTestApp({
    RUN_WORKER: 'true',
    LOG_LEVEL: 'error',
    WORKER_POLL_MS: '50',
    PUBLIC_URL: 'https://rail.example.test',
    SMS_OUTBOX_DIR: smsDir,
    NOTICE_RETRY_SCHEDULE: '20ms,20ms',
    // Live texts go to the fake; sandbox ones must still land in the outbox.
    SMS_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: TWILIO_SID,
    TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
    TWILIO_FROM,
    TWILIO_API_URL: twilio.url,
    // Nothing listens here: a live e-mail fails (and is retried); a sandbox one must never try it.
    SMTP_URL: 'smtp://127.0.0.1:9',
  });
  w = await ordersWorld(app, 'Harbor Clinic');
});
afterAll(async () => {
  await app?.close();
  await twilio?.close();
});

const mailTo = (to: string) => readOutbox(app).filter((m) => m.to === to);
const orderOf = async (patientId = w.patients.ca) => {
  const created = await w.create({ patientId });
  expect(created.status).toBe(201);
  return created.body.id as string;
};
async function pharmacySays(orderId: string, status: string, extra: Record<string, unknown> = {}) {
  const [d] = await query<{ idempotency_key: string; connection_id: string }>(app, sql`select idempotency_key, connection_id from order_dispatches where order_id = ${orderId} order by round desc limit 1`);
  const secret = d.connection_id === w.pharmacies.alpha ? w.pharmacies.alphaSecret : w.pharmacies.betaSecret;
  return sendCallback(app, d.connection_id, secret, { idempotencyKey: d.idempotency_key, status, ...extra });
}
const patch = (body: unknown, key = w.key) => app.request('PATCH', '/v1/notices/settings', { key, body });

describe('milestones of an order', () => {
  it('sends each milestone once per channel, whatever retries the triggering request gets', async () => {
    const id = await orderOf();
    const key = randomUUID();
    const first = await w.approve(id, undefined, key);
    expect(first.status).toBe(201);
    expect(first.body.status).toBe('submitted');
    // The same approval again (the SDK's retry) replays; a second approve of the moved order is a conflict.
    expect((await w.approve(id, undefined, key)).headers.get('idempotent-replayed')).toBe('true');
    expect((await w.approve(id)).status).toBe(409);
    expect((await pharmacySays(id, 'shipped', { tracking: TRACKING })).body.outcome).toBe('applied');
    expect((await pharmacySays(id, 'shipped', { tracking: TRACKING })).body.outcome).toBe('duplicate');
    expect((await pharmacySays(id, 'delivered')).body.outcome).toBe('applied');
    expect((await pharmacySays(id, 'delivered')).body.outcome).toBe('duplicate');

    const rows = await noticesSettled(app, id, 6);
    expect(rows.map((r) => `${r.milestone}/${r.channel}/${r.status}/${r.skip_reason ?? ''}`)).toEqual([
      'order_sent/email/sent/',
      'order_sent/sms/skipped/milestone_off',
      'order_shipped/email/sent/',
      'order_shipped/sms/skipped/milestone_off',
      'order_delivered/email/sent/',
      'order_delivered/sms/skipped/milestone_off',
    ]);
    const mail = mailTo('quinn.ca@plantedmail.test');
    expect(mail.map((m) => m.subject)).toEqual([
      '[Sandbox] Harbor Clinic: Your order was sent to the pharmacy',
      '[Sandbox] Harbor Clinic: Your order has shipped',
      '[Sandbox] Harbor Clinic: Your order was delivered',
    ]);
    expect(mail[1].text).toContain('Carrier: FedEx');
    expect(mail[1].text).toContain(`Track your package: ${TRACKING.url}`);
    for (const m of mail) expect(m.text).toMatch(/https:\/\/rail\.example\.test\/unsubscribe\?token=/);

    // The order's page lists them, with the text that was sent.
    const listed = await app.request('GET', `/v1/orders/${id}/notices`, { key: w.key });
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(6);
    expect(listed.body[0]).toMatchObject({ object: 'patient_notice', orderId: id, milestone: 'order_sent', channel: 'email', status: 'sent', via: 'outbox', subject: mail[0].subject, text: mail[0].text });
    expect(listed.body[1]).toMatchObject({ channel: 'sms', status: 'skipped', skipReason: 'milestone_off', text: null });
  });

  it('tells the patient when an order needs attention: rejected, or cancelled (a draft cancelled is no news)', async () => {
    const rejected = await orderOf();
    expect((await w.approve(rejected)).status).toBe(201);
    expect((await pharmacySays(rejected, 'rejected', { reasonCode: 'out_of_stock' })).body.outcome).toBe('applied');
    const cancelled = await orderOf();
    expect((await w.approve(cancelled)).status).toBe(201);
    expect((await w.act(cancelled, 'cancel')).status).toBe(201);
    const draft = await w.create({ patientId: undefined });
    expect(draft.body.status).toBe('draft');
    expect((await w.act(draft.body.id, 'cancel')).status).toBe(201);

    const r = await noticesSettled(app, rejected, 4);
    expect(r.filter((n) => n.milestone === 'needs_attention').map((n) => [n.channel, n.cause, n.status])).toEqual([['email', 'rejected', 'sent'], ['sms', 'rejected', 'skipped']]);
    expect(r.find((n) => n.milestone === 'needs_attention' && n.channel === 'email')!.subject).toBe('[Sandbox] Harbor Clinic: Your order needs attention');
    const c = await noticesSettled(app, cancelled, 4);
    expect(c.find((n) => n.milestone === 'needs_attention' && n.channel === 'email')).toMatchObject({ cause: 'cancelled', status: 'sent', subject: '[Sandbox] Harbor Clinic: Your order was cancelled' });
    expect(await noticesOf(app, draft.body.id)).toEqual([]);
  });
});

describe('the clinic’s settings', () => {
  it('are honoured when the worker sends: a milestone turned off is skipped, a sender name and support contact are used', async () => {
    expect((await patch({ milestones: { order_sent: { email: false } }, senderName: 'Harbor <b>Health</b>', supportContact: 'help@harbor.example' })).status).toBe(200);
    try {
      const id = await orderOf();
      expect((await w.approve(id)).status).toBe(201);
      expect((await pharmacySays(id, 'shipped', { tracking: TRACKING })).body.outcome).toBe('applied');
      const rows = await noticesSettled(app, id, 4);
      expect(rows.find((n) => n.milestone === 'order_sent' && n.channel === 'email')).toMatchObject({ status: 'skipped', skip_reason: 'milestone_off' });
      const shipped = rows.find((n) => n.milestone === 'order_shipped' && n.channel === 'email')!;
      expect(shipped.status).toBe('sent');
      // Plain text: the name is shown as typed, never as markup.
      expect(shipped.subject).toBe('[Sandbox] Harbor <b>Health</b>: Your order has shipped');
      expect(shipped.body).toContain('Questions? Contact Harbor <b>Health</b>: help@harbor.example');
    } finally {
      expect((await patch({ milestones: { order_sent: { email: true } }, senderName: null, supportContact: null })).status).toBe(200);
    }
  });
});

describe('the patient’s opt-out', () => {
  it('stops that channel at once, even for a notice queued before it', async () => {
    // A patient of their own, so the opt-out touches no other test.
    const made = await app.request('POST', '/v1/patients', {
      key: w.key,
      body: { firstName: 'Opal', lastName: 'Outwith', dateOfBirth: '1980-01-01', sex: 'female', email: 'opal@plantedmail.test', address: { line1: '1 A St', city: 'Town', state: 'CA', postalCode: '90001' } },
    });
    const id = await orderOf(made.body.id);
    expect((await w.approve(id)).status).toBe(201);
    await noticesSettled(app, id, 2);
    const [sent] = mailTo('opal@plantedmail.test');
    const link = new URL(unsubscribeLink(sent.text));

    // The worker is stopped: the shipped notice is queued, and the patient opts out before it is sent.
    await app.worker!.stop();
    try {
      expect((await pharmacySays(id, 'shipped', { tracking: TRACKING })).body.outcome).toBe('applied');
      expect((await noticesOf(app, id)).filter((n) => n.status === 'pending')).toHaveLength(2);
      const head = await app.request('HEAD', `${link.pathname}${link.search}`);
      expect(head.status).toBe(200);
      expect((await query<{ notify_email: boolean }>(app, sql`select notify_email from patients where id = ${made.body.id}`))[0].notify_email).toBe(true);
      const page = await app.request('GET', `${link.pathname}${link.search}`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.text).toContain('You will no longer get e-mails from Harbor Clinic');
      expect((await app.request('GET', `${link.pathname}${link.search}`)).status).toBe(200);
    } finally {
      await app.worker!.start();
    }
    const rows = await noticesSettled(app, id, 4);
    expect(rows.find((n) => n.milestone === 'order_shipped' && n.channel === 'email')).toMatchObject({ status: 'skipped', skip_reason: 'opted_out' });
    expect(mailTo('opal@plantedmail.test')).toHaveLength(1);
  });

  it('refuses a link that was changed, with a 400 page, changing nothing', async () => {
    const before = await query<{ n: number }>(app, sql`select count(*)::int as n from patients where notify_email = false`);
    for (const token of ['', 'x', 'a.b', `${Buffer.from('{"t":"ten_x"}').toString('base64url')}.forged`, 'é'.repeat(500)]) {
      const res = await app.request('GET', `/unsubscribe?token=${encodeURIComponent(token)}`);
      expect(res.status).toBe(400);
      expect(res.text).toContain('This link does not work');
    }
    expect((await app.request('GET', '/unsubscribe')).status).toBe(400);
    expect((await app.request('POST', '/unsubscribe?token=x')).status).toBe(405);
    expect(await query<{ n: number }>(app, sql`select count(*)::int as n from patients where notify_email = false`)).toEqual(before);
  });
});

describe('text messages', () => {
  let embed: string;
  beforeAll(async () => {
    await approvedQuestionnaire(app, { tenantId: w.tenantId, livemode: false }, weightDocument('weight'));
    const made = await app.request('POST', '/v1/embed-keys', { key: w.key, body: { allowedOrigins: ['https://harbor.example'] } });
    embed = made.body.id;
    expect((await patch({ milestones: { submission_received: { sms: true } } })).status).toBe(200);
  });
  const submit = (patient: Record<string, unknown>) =>
    app.request('POST', `/v1/public/intake/${embed}/submissions`, {
      body: { questionnaireKey: 'weight', patient: { name: 'Sam Texter', email: 'sam@plantedmail.test', state: 'CA', ...patient }, answers: eligibleAnswers() },
      idempotencyKey: randomUUID(),
      headers: { origin: 'https://harbor.example' },
    });

  it('go only to a patient who consented with a phone, and in sandbox only to the outbox', async () => {
    const consented = await submit({ phone: '(415) 555-0134', smsConsent: true });
    expect(consented.status).toBe(201);
    const without = await submit({ phone: '(415) 555-0135' });
    expect(without.status).toBe(201);
    const yes = await noticesSettled(app, consented.body.submissionId, 2);
    expect(yes.map((n) => [n.channel, n.status, n.via])).toEqual([['email', 'sent', 'outbox'], ['sms', 'sent', 'outbox']]);
    const no = await noticesSettled(app, without.body.submissionId, 2);
    expect(no.find((n) => n.channel === 'sms')).toMatchObject({ status: 'skipped', skip_reason: 'no_consent' });
    // Sandbox: a synthetic patient's fictitious number, in the outbox; Twilio and SMTP never asked.
    const sms = readSmsOutbox(smsDir);
    expect(sms).toHaveLength(1);
    expect(sms[0].to).toMatch(/^\+1\d{3}55501\d{2}$/);
    expect(sms[0].text).toContain('[Sandbox] Harbor Clinic: We received your request.');
    expect(sms[0].text).toMatch(/Details: https:\/\/rail\.example\.test\/p\/emb_/);
    expect(twilio.requests).toBe(0);
  });

  it('refuses a consent without a phone (400, nothing written)', async () => {
    const tables = ['patients', 'intake_submissions', 'patient_notices', 'jobs'];
    const before = await Promise.all(tables.map((t) => countRows(app, t)));
    const res = await submit({ smsConsent: true });
    expectEnvelope(res, 400, 'validation_error', 'phone_required');
    expect(res.body.error.param).toBe('patient.smsConsent');
    const notBool = await submit({ phone: '4155550134', smsConsent: 'yes' });
    expectEnvelope(notBool, 400, 'validation_error');
    expect(await Promise.all(tables.map((t) => countRows(app, t)))).toEqual(before);
  });
});

describe('live delivery', () => {
  let live: Awaited<ReturnType<typeof ordersWorld>>;
  let phonePatient: string;
  beforeAll(async () => {
    live = await ordersWorld(app, 'Live Clinic', { mode: 'live' });
    const made = await app.request('POST', '/v1/patients', {
      key: live.key,
      body: { firstName: 'Lee', lastName: 'Live', dateOfBirth: '1980-01-01', sex: 'male', email: 'lee@plantedmail.test', phone: '+14155550188', address: { line1: '1 A St', city: 'Town', state: 'CA', postalCode: '90001' } },
    });
    phonePatient = made.body.id;
    // Consent as the public paths record it (the portal engineer's PATCH writes the same columns).
    await app.services.database.db.execute(sql`update patients set sms_consent_at = now(), notify_sms = true where id = ${phonePatient}`);
    expect((await patch({ milestones: { order_sent: { sms: true }, order_shipped: { sms: true } } }, live.key)).status).toBe(200);
  });

  it('texts through Twilio; a refused text and an unreachable mail server are shown as failed, and the order moves on', async () => {
    twilio.failNext(400);
    const created = await live.create({ patientId: phonePatient });
    const id = created.body.id as string;
    const approved = await live.approve(id);
    expect(approved.status).toBe(201);
    expect(approved.body.status).toBe('submitted');
    const rows = await waitForStatuses(id, 2);
    expect(rows.find((n) => n.channel === 'sms')).toMatchObject({ status: 'failed', via: 'twilio', attempts: 1 });
    expect(rows.find((n) => n.channel === 'sms')!.last_error).toMatch(/HTTP 400 \(error 21211\)/);
    expect(rows.find((n) => n.channel === 'sms')!.last_error).not.toContain('4155550188');
    // SMTP at a closed port: tried on every step of the schedule (1 + 2 retries), then failed.
    expect(rows.find((n) => n.channel === 'email')).toMatchObject({ status: 'failed', via: 'smtp', attempts: 3 });

    // The order is not held: it ships, and the next text goes through Twilio.
    const dispatch = await query<{ idempotency_key: string; connection_id: string }>(app, sql`select idempotency_key, connection_id from order_dispatches where order_id = ${id}`);
    const cb = await sendCallback(app, dispatch[0].connection_id, dispatch[0].connection_id === live.pharmacies.alpha ? live.pharmacies.alphaSecret : live.pharmacies.betaSecret, { idempotencyKey: dispatch[0].idempotency_key, status: 'shipped', tracking: TRACKING });
    expect(cb.body.outcome).toBe('applied');
    expect((await live.get(id)).body.status).toBe('shipped');
    const after = await waitForStatuses(id, 4);
    expect(after.find((n) => n.milestone === 'order_shipped' && n.channel === 'sms')).toMatchObject({ status: 'sent', via: 'twilio' });
    expect(twilio.messages).toHaveLength(1);
    expect(twilio.messages[0]).toMatchObject({ accountSid: TWILIO_SID, to: '+14155550188', from: TWILIO_FROM });
    expect(twilio.messages[0].body).toContain('Live Clinic: Your order has shipped.');
    expect(twilio.messages[0].authorization).toBe(`Basic ${Buffer.from(`${TWILIO_SID}:${TWILIO_TOKEN}`).toString('base64')}`);

    const listed = await app.request('GET', `/v1/orders/${id}/notices`, { key: live.key });
    expect(listed.body.map((n: { status: string }) => n.status)).toEqual(['failed', 'failed', 'failed', 'sent']);
  });

  async function waitForStatuses(id: string, count: number) {
    return noticesSettled(app, id, count);
  }
});

describe('the flow’s contact step', () => {
  it('takes an optional SMS consent: with a phone it is recorded, without one it is a 400 that saves nothing', async () => {
    const clinic = await createTenantWithKeys(app, 'Flow Clinic');
    const q = await approvedQuestionnaire(app, { tenantId: clinic.tenantId, livemode: true }, weightDocument('weight'));
    const flow = await publishedFlow(app, { tenantId: clinic.tenantId, livemode: true }, q, weightFlowDocument('weight'), { allowedOrigins: ['https://clinic.example'] });
    const client = flowClient(app, flow.embedKey);
    const definition = await client.definition();
    expect(definition.body.steps.find((st: { kind: string }) => st.kind === 'contact').fields).toContain('smsConsent');
    const session = await client.started();
    const steps = weightRunAnswers();
    await client.answerAll(session, steps.filter(([id]) => id !== 'contact'));
    const before = await countRows(app, 'flow_session_answers');
    const refused = await client.step(session, 'contact', { ...CONTACT, smsConsent: true });
    expectEnvelope(refused, 400, 'validation_error');
    expect(refused.body.error.param).toBe('answers.smsConsent');
    expectEnvelope(await client.step(session, 'contact', { ...CONTACT, phone: '4155550142', smsConsent: 'yes' }), 400, 'validation_error');
    expect(await countRows(app, 'flow_session_answers')).toBe(before);
    expect((await client.step(session, 'contact', { ...CONTACT, phone: '4155550142', smsConsent: true })).status).toBe(200);
    const done = await client.submit(session);
    expect(done.status).toBe(200);
    const [patient] = await query<{ sms_consent_at: Date | null; notify_sms: boolean; phone: string }>(
      app,
      sql`select p.sms_consent_at, p.notify_sms, p.phone from patients p join intake_submissions s on s.patient_id = p.id where s.id = ${done.body.submissionId}`,
    );
    expect(patient).toMatchObject({ notify_sms: true, phone: '+14155550142' });
    expect(patient.sms_consent_at).not.toBeNull();
    // The portal link of a flow's notice is the key the patient came through.
    const rows = await noticesSettled(app, done.body.submissionId, 2);
    expect(rows.find((r) => r.channel === 'email')!.body).toContain(`https://rail.example.test/p/${flow.embedKey}`);
  });
});

describe('the settings API', () => {
  it('answers the defaults, then what was set, per mode', async () => {
    const clinic = await createTenantWithKeys(app, 'Fresh Clinic');
    const res = await app.request('GET', '/v1/notices/settings', { key: clinic.sandboxKey });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'notice_settings', livemode: false, senderName: null, supportContact: null, sender: 'Fresh Clinic', updatedAt: null, delivery: { email: 'outbox', sms: 'outbox' } });
    for (const m of ['submission_received', 'order_sent', 'order_shipped', 'order_delivered', 'needs_attention']) expect(res.body.milestones[m]).toEqual({ email: true, sms: false });
    const set = await app.request('PATCH', '/v1/notices/settings', { key: clinic.sandboxKey, body: { milestones: { order_shipped: { sms: true } }, senderName: '  Fresh & Co  ' } });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ senderName: 'Fresh & Co', sender: 'Fresh & Co', milestones: { order_shipped: { email: true, sms: true } } });
    // Live is its own: untouched, and delivered through SMTP and Twilio on this deployment.
    const live = await app.request('GET', '/v1/notices/settings', { key: clinic.liveKey });
    expect(live.body).toMatchObject({ livemode: true, senderName: null, milestones: { order_shipped: { sms: false } }, delivery: { email: 'smtp', sms: 'twilio' } });
    const preview = await app.request('GET', '/v1/notices/settings/preview?milestone=order_shipped&channel=sms', { key: clinic.sandboxKey });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ object: 'notice_preview', milestone: 'order_shipped', channel: 'sms', cause: null, subject: null });
    expect(preview.body.text).toContain('[Sandbox] Fresh & Co: Your order has shipped.');
    expect(preview.body.text).toContain('Carrier: UPS');
    const cancelled = await app.request('GET', '/v1/notices/settings/preview?milestone=needs_attention&channel=email&cause=cancelled', { key: clinic.sandboxKey });
    expect(cancelled.body.subject).toBe('[Sandbox] Fresh & Co: Your order was cancelled');
  });

  it('refuses malformed, oversized and hostile input with a 400 envelope, writing nothing', async () => {
    const clinic = await createTenantWithKeys(app, 'Strict Clinic');
    const bad: [unknown, string | undefined][] = [
      [{ milestones: { order_teleported: { email: true } } }, 'milestones'],
      [{ milestones: { order_sent: { fax: true } } }, 'milestones.order_sent'],
      [{ milestones: { order_sent: { email: 'yes' } } }, 'milestones.order_sent.email'],
      [{ milestones: { order_sent: { email: 1 } } }, 'milestones.order_sent.email'],
      [{ senderName: '' }, 'senderName'],
      [{ senderName: '   ' }, 'senderName'],
      [{ senderName: 'x'.repeat(81) }, 'senderName'],
      [{ senderName: 'Line\nBreak' }, 'senderName'],
      [{ senderName: 'Bcc:\r\nevil@example.com' }, 'senderName'],
      [{ senderName: 'nul\u0000' }, 'senderName'],
      [{ supportContact: 'y'.repeat(201) }, 'supportContact'],
      [{ supportContact: 42 }, 'supportContact'],
      [{ colour: 'red' }, undefined],
      [[], undefined],
      ['settings', undefined],
    ];
    for (const [body, param] of bad) {
      const res = await app.request('PATCH', '/v1/notices/settings', { key: clinic.sandboxKey, body });
      expectEnvelope(res, 400, 'validation_error');
      if (param) expect(res.body.error.param.startsWith(param), `${JSON.stringify(body).slice(0, 80)}: ${res.body.error.param}`).toBe(true);
    }
    expectEnvelope(await app.request('PATCH', '/v1/notices/settings', { key: clinic.sandboxKey, rawBody: '{"senderName":', headers: { 'content-type': 'application/json' } }), 400, 'validation_error');
    expect((await app.request('PATCH', '/v1/notices/settings', { key: clinic.sandboxKey, body: { senderName: 'z'.repeat(2_000_000) } })).status).toBe(413);
    for (const q of ['', '?milestone=order_sent', '?milestone=launch&channel=email', '?milestone=order_sent&channel=pigeon', '?milestone=needs_attention&channel=email&cause=bored']) {
      expectEnvelope(await app.request('GET', `/v1/notices/settings/preview${q}`, { key: clinic.sandboxKey }), 400, 'validation_error');
    }
    expect(await query(app, sql`select id from notice_settings where tenant_id = ${clinic.tenantId}`)).toEqual([]);
  });

  it('needs patients.write; an order’s notices need orders.read and stay in their tenant', async () => {
    const dev = await createUserAndLogin(app, w.tenantId, { email: `dev-${randomUUID()}@harbor.example`, role: 'developer' });
    expectEnvelope(await app.request('GET', '/v1/notices/settings', { key: dev.token }), 403, 'permission_error');
    expectEnvelope(await app.request('PATCH', '/v1/notices/settings', { key: dev.token, body: { senderName: 'Dev' } }), 403, 'permission_error');
    const restricted = await app.request('POST', '/v1/developer/keys', { key: w.key, body: { name: 'reader', keyType: 'restricted', scopes: ['orders.read'] } });
    expect(restricted.status).toBe(201);
    expectEnvelope(await app.request('GET', '/v1/notices/settings', { key: restricted.body.key }), 403, 'permission_error');
    const [order] = await query<{ subject_id: string }>(app, sql`select subject_id from patient_notices where subject_kind = 'order' and tenant_id = ${w.tenantId} limit 1`);
    expect((await app.request('GET', `/v1/orders/${order.subject_id}/notices`, { key: restricted.body.key })).status).toBe(200);
    const other = await createTenantWithKeys(app, 'Other Clinic');
    expectEnvelope(await app.request('GET', `/v1/orders/${order.subject_id}/notices`, { key: other.sandboxKey }), 404, 'not_found');
    expectEnvelope(await app.request('GET', `/v1/orders/${order.subject_id}/notices`, { key: w.liveKey }), 404, 'not_found');
  });
});

describe('the job', () => {
  it('is queued by the database under the name the worker handles', async () => {
    const kinds = await query<{ kind: string }>(app, sql`select distinct kind from jobs where payload ? 'noticeId'`);
    for (const { kind } of kinds) expect(kind).toBe(NOTICE_JOB);
    const fn = await query<{ src: string }>(app, sql`select prosrc as src from pg_proc where proname = 'fr_enqueue_patient_notice'`);
    expect(fn[0].src).toContain(`'${NOTICE_JOB}'`);
    expect(typeof createWorker).toBe('function');
  });
});
