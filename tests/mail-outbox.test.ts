import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTenantWithKeys, createUserAndLogin, readOutbox, startTestApp, type TestApp } from './helpers/harness';

// Issue 20 (with item 9): the development outbox holds sign-in links, which are credentials; on PostgreSQL
// nothing else narrows the process umask, so the outbox itself must be owner-only.

let app: TestApp;
const outbox = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fr-outbox-')), 'mail');

beforeAll(async () => {
  app = await startTestApp({ MAIL_OUTBOX_DIR: outbox });
});
afterAll(async () => app?.close());

it('writes the outbox directory 0700 and each message 0600', async () => {
  const t = await createTenantWithKeys(app);
  await createUserAndLogin(app, t.tenantId, { email: 'outbox@clinic.test', role: 'admin' });
  const res = await app.request('POST', '/v1/auth/magic-link', { body: { email: 'outbox@clinic.test' } });
  expect(res.status).toBe(200);
  expect(readOutbox(app).map((m) => m.to)).toContain('outbox@clinic.test');
  expect(fs.statSync(outbox).mode & 0o777).toBe(0o700);
  for (const f of fs.readdirSync(outbox)) expect(fs.statSync(path.join(outbox, f)).mode & 0o777, f).toBe(0o600);
});
