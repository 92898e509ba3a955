import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmsSender, SmsRefused } from '@/server/integrations/sms';
import { loadConfig } from '@/server/lib/config';
import { startFakeTwilio, TWILIO_FROM, TWILIO_SID, TWILIO_TOKEN, type FakeTwilio } from './helpers/fake-twilio';
import { createTenantWithKeys, startTestApp, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, eligibleAnswers, weightDocument } from './helpers/intake-world';
import { noticesSettled } from './helpers/notices';

/*
 * SMS_PROVIDER=twilio (DESIGN decision 41) through the official `twilio` SDK, pointed at a local fake of the one
 * endpoint used (POST /2010-04-01/Accounts/{sid}/Messages.json) with the SDK's own custom HTTP client hook.
 */

let twilio: FakeTwilio;
beforeAll(async () => {
  twilio = await startFakeTwilio();
});
afterAll(async () => twilio?.close());

const sender = (from = TWILIO_FROM) =>
  createSmsSender({ provider: 'twilio', outboxDir: '/nonexistent', production: true, twilio: { accountSid: TWILIO_SID, authToken: TWILIO_TOKEN, from, apiUrl: twilio.url } });

describe('the Twilio SMS sender', () => {
  it('posts To, From and Body with the account’s basic auth', async () => {
    const sms = await sender();
    expect(sms.transport).toBe('twilio');
    await sms.send({ to: '+14155550100', text: 'Clinic: Your order has shipped.' });
    expect(twilio.messages.at(-1)).toEqual({
      accountSid: TWILIO_SID,
      authorization: `Basic ${Buffer.from(`${TWILIO_SID}:${TWILIO_TOKEN}`).toString('base64')}`,
      to: '+14155550100',
      from: TWILIO_FROM,
      messagingServiceSid: null,
      body: 'Clinic: Your order has shipped.',
    });
  });

  it('sends through a messaging service when TWILIO_FROM is one', async () => {
    const service = `MG${'b2'.repeat(16)}`;
    await (await sender(service)).send({ to: '+14155550101', text: 'hi' });
    expect(twilio.messages.at(-1)).toMatchObject({ from: null, messagingServiceSid: service });
  });

  it('turns a 4xx into SmsRefused (never retried) and a 5xx or a dead host into a retryable error, without the number', async () => {
    const sms = await sender();
    twilio.failNext(400);
    const refused = await sms.send({ to: '+14155550102', text: 'x' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SmsRefused);
    expect((refused as SmsRefused).message).toBe('Twilio answered HTTP 400 (error 21211): the message was refused');
    twilio.failNext(503);
    const failed = await sms.send({ to: '+14155550102', text: 'x' }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(Error);
    expect(failed).not.toBeInstanceOf(SmsRefused);
    expect(String(failed)).not.toContain('4155550102');
    const dead = await createSmsSender({ provider: 'twilio', outboxDir: '/x', production: true, twilio: { accountSid: TWILIO_SID, authToken: TWILIO_TOKEN, from: TWILIO_FROM, apiUrl: 'http://127.0.0.1:9' } });
    const unreachable = await dead.send({ to: '+14155550102', text: 'x' }).catch((e: unknown) => e);
    expect(String(unreachable)).toMatch(/Twilio could not be reached/);
    expect(String(unreachable)).not.toContain('4155550102');
  });
});

describe('configuration', () => {
  it('refuses twilio without its three keys, and malformed ones, naming them', () => {
    expect(() => loadConfig({ SMS_PROVIDER: 'twilio' })).toThrow(/SMS_PROVIDER: with SMS_PROVIDER=twilio set TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM/);
    expect(() => loadConfig({ SMS_PROVIDER: 'carrier-pigeon' })).toThrow(/SMS_PROVIDER/);
    expect(() => loadConfig({ TWILIO_ACCOUNT_SID: 'AC123' })).toThrow(/TWILIO_ACCOUNT_SID: a Twilio account SID/);
    expect(() => loadConfig({ TWILIO_FROM: '555-0100' })).toThrow(/TWILIO_FROM/);
    expect(() => loadConfig({ NOTICE_RETRY_SCHEDULE: 'soon' })).toThrow(/NOTICE_RETRY_SCHEDULE/);
    const ok = loadConfig({ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: TWILIO_SID, TWILIO_AUTH_TOKEN: TWILIO_TOKEN, TWILIO_FROM });
    expect(ok.SMS_OUTBOX_DIR).toBe('.data/sms');
    expect(loadConfig({}).SMS_PROVIDER).toBe('outbox');
  });
});

describe('a live patient’s text, end to end', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ RUN_WORKER: 'true', WORKER_POLL_MS: '50', SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: TWILIO_SID, TWILIO_AUTH_TOKEN: TWILIO_TOKEN, TWILIO_FROM, TWILIO_API_URL: twilio.url });
  });
  afterAll(async () => app?.close());

  it('goes through Twilio once the clinic turned SMS on and the patient consented', async () => {
    const clinic = await createTenantWithKeys(app, 'Bayside Clinic');
    await approvedQuestionnaire(app, { tenantId: clinic.tenantId, livemode: true }, weightDocument('weight'));
    const embed = (await app.request('POST', '/v1/embed-keys', { key: clinic.liveKey, body: { allowedOrigins: ['https://bayside.example'] } })).body.id as string;
    expect((await app.request('PATCH', '/v1/notices/settings', { key: clinic.liveKey, body: { milestones: { submission_received: { sms: true } } } })).status).toBe(200);
    const before = twilio.messages.length;
    const res = await app.request('POST', `/v1/public/intake/${embed}/submissions`, {
      idempotencyKey: randomUUID(),
      headers: { origin: 'https://bayside.example' },
      body: { questionnaireKey: 'weight', patient: { name: 'Tia Text', email: 'tia@bayside.example', dateOfBirth: '1980-04-02', state: 'CA', phone: '415 555 0177', smsConsent: true }, answers: eligibleAnswers() },
    });
    expect(res.status).toBe(201);
    const rows = await noticesSettled(app, res.body.submissionId, 2);
    expect(rows.find((r) => r.channel === 'sms')).toMatchObject({ status: 'sent', via: 'twilio' });
    expect(twilio.messages.slice(before)).toHaveLength(1);
    expect(twilio.messages.at(-1)).toMatchObject({ to: '+14155550177', from: TWILIO_FROM });
    expect(twilio.messages.at(-1)!.body).toMatch(/^Bayside Clinic: We received your request\.\nDetails: http:\/\/localhost:3000\/p\/emb_\w+\nStop texts: http:\/\/localhost:3000\/unsubscribe\?token=[\w-]+\.[\w-]+$/);
  });
});
