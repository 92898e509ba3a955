import { defineConfig } from '@playwright/test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// A fresh embedded database and mail outbox per run; the specs read the outbox through E2E_MAIL_DIR.
const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-e2e-'));
const PORT = Number(process.env.E2E_PORT ?? 3107);
process.env.E2E_MAIL_DIR ??= path.join(runDir, 'mail');
process.env.E2E_OPS_KEY ??= 'ops_e2e_bootstrap_key_0123456789';
process.env.E2E_BASE_URL ??= `http://localhost:${PORT}`;
// Known to the specs so they can read (and age) the console's session cookie, as the refresh test does.
process.env.E2E_AUTH_SECRET ??= 'e2e-auth-secret-0123456789abcdefghijklmnopqrstuv';

export default defineConfig({
  testDir: 'e2e',
  timeout: 60_000,
  // A generous wait for what marks completion (a redirect, a row on the page), never a budget: two lanes share
  // the server, and a sign-in's scrypt can take several seconds while the other lane loads pages.
  expect: { timeout: 20_000 },
  // Two workers share both projects (issue 32). Journey files run side by side, each file's tests in order
  // (a file's tests build on one another); every journey makes its own clinic and people, so the server's
  // per-address attempt limits never see two files at once. The accessibility sweep, which only reads the
  // pages of its own seeded clinic, hands out its tests one at a time to whichever worker is free. Much of a
  // test's time is waiting (page loads, network idle), so two workers keep both cores busy.
  workers: 2,
  projects: [
    { name: 'journeys', testIgnore: /a11y\.spec\.ts$/ },
    { name: 'accessibility', testMatch: /a11y\.spec\.ts$/, fullyParallel: true },
  ],
  reporter: [['list']],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    },
  },
  webServer: {
    command: 'node scripts/run-built.mjs start',
    url: `http://localhost:${PORT}/healthz`,
    timeout: 300_000,
    reuseExistingServer: false,
    env: {
      PORT: String(PORT),
      NODE_ENV: 'production',
      PGLITE_DATA_DIR: path.join(runDir, 'pglite'),
      MAIL_OUTBOX_DIR: process.env.E2E_MAIL_DIR,
      // The specs sign in through the links in the outbox; production drops mail without SMTP otherwise.
      MAIL_OUTBOX_IN_PRODUCTION: 'true',
      OPS_BOOTSTRAP_KEY: process.env.E2E_OPS_KEY,
      AUTH_SECRET: process.env.E2E_AUTH_SECRET,
      SEED_DEMO: 'false',
      PUBLIC_URL: process.env.E2E_BASE_URL,
      NEXT_TELEMETRY_DISABLED: '1',
      LOG_LEVEL: 'warn',
      WEBHOOKS_ALLOW_LOCALHOST: 'true',
      WEBHOOK_RETRY_SCHEDULE: '0,1s,1s',
      // As behind a balancer on this machine: X-Forwarded-* from loopback are the balancer's (e2e/http-surface.spec.ts).
      TRUST_PROXY: 'loopback',
    },
  },
});
