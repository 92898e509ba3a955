import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTenantWithKeys, createUserAndLogin, readOutbox, startTestApp, type TestApp } from '../helpers/harness';
import { captureLogs } from '../helpers/logs';
import { TEST_TIMEOUT_MS, waitFor } from '../helpers/webhooks';

vi.setConfig({ testTimeout: TEST_TIMEOUT_MS });

/**
 * Sign-in links without SMTP_URL: a magic link or invitation in the log let anyone who reads the log sign in
 * as its recipient. Outside production they stay in the outbox file (owner-only); in production the mail is
 * not delivered and the log says so, without the link.
 */

let logs: ReturnType<typeof captureLogs>;
beforeAll(() => {
  logs = captureLogs();
});
afterAll(() => logs?.restore());

/** A magic link and an invitation requested over HTTP; waits until the mailer has logged both. */
async function mailBoth(app: TestApp) {
  const from = logs.count();
  const { tenantId } = await createTenantWithKeys(app, 'Mail');
  const admin = await createUserAndLogin(app, tenantId, { email: 'admin@mail.test', role: 'admin' });
  expect((await app.request('POST', '/v1/auth/magic-link', { body: { email: 'admin@mail.test' } })).status).toBe(200);
  expect((await app.request('POST', '/v1/users', { key: admin.token, body: { email: 'invitee@mail.test', role: 'developer' } })).status).toBe(201);
  const mailLines = () => logs.records().slice(from).filter((r) => /mail/.test(String(r.msg)));
  // Both requests await their mail, so the lines are normally in already; the wait only covers a logger that writes later.
  await waitFor(() => mailLines().length >= 2, { what: 'the mailer’s log lines for the magic link and the invitation' });
  expect(mailLines()).toHaveLength(2);
  return { text: logs.text(from), lines: mailLines() };
}

const expectNoLink = (text: string) => {
  for (const fragment of ['token=', '/login/magic', '/invite?', 'http://']) expect(text).not.toContain(fragment);
};

describe('without SMTP_URL outside production', () => {
  let app: TestApp;
  beforeAll(async () => {
    // An outbox directory that exists already and is readable by all: the mailer narrows it.
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fr-mail-')), 'outbox');
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o755);
    app = await startTestApp({ MAIL_OUTBOX_DIR: dir });
  });
  afterAll(async () => app?.close());

  it('keeps the links in owner-only outbox files and never logs them', async () => {
    const { text, lines } = await mailBoth(app);
    const dir = app.services.config.MAIL_OUTBOX_DIR;
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const files = fs.readdirSync(dir);
    expect(files).toHaveLength(2);
    for (const f of files) expect(fs.statSync(path.join(dir, f)).mode & 0o777).toBe(0o600);
    const links = readOutbox(app).map((m) => m.link!);
    expect(links).toHaveLength(2);
    for (const link of links) {
      expect(text).not.toContain(link);
      expect(text).not.toContain(new URL(link).searchParams.get('token')!);
    }
    expectNoLink(text);
    expect(lines.every((l) => l.msg === 'mail written to the outbox')).toBe(true);
  });
});

describe('without SMTP_URL in production', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ NODE_ENV: 'production', AUTH_SECRET: 'production-test-secret-0123456789abcdef' });
  });
  afterAll(async () => app?.close());

  it('delivers nothing, writes no file, and logs that the mail was not delivered, without the link', async () => {
    const { text, lines } = await mailBoth(app);
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [40, 'mail not delivered: SMTP_URL is not set'],
      [40, 'mail not delivered: SMTP_URL is not set'],
    ]);
    expectNoLink(text);
    expect(readOutbox(app)).toEqual([]);
  });
});

describe('without SMTP_URL in production, outbox opted in (MAIL_OUTBOX_IN_PRODUCTION)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ NODE_ENV: 'production', AUTH_SECRET: 'production-test-secret-0123456789abcdef', MAIL_OUTBOX_IN_PRODUCTION: 'true' });
  });
  afterAll(async () => app?.close());

  it('writes the owner-only outbox files and still logs no link', async () => {
    const { text } = await mailBoth(app);
    expect(readOutbox(app)).toHaveLength(2);
    expectNoLink(text);
  });
});
