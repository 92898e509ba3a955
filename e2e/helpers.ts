import fs from 'node:fs';
import path from 'node:path';
import { expect, type BrowserContext, type Page } from '@playwright/test';
import { decode, encode, type JWT } from 'next-auth/jwt';

export const base = () => process.env.E2E_BASE_URL!;
export const PASSWORD = 'correct horse battery staple';

/**
 * Headers for the specs' own API calls (seeding clinics, enrolling providers): each call comes from its own address
 * in 198.18.0.0/15 (the benchmarking range), through the trusted proxy the e2e server is configured with
 * (TRUST_PROXY=loopback). The seeding stands for many clinics' staff at many addresses; without this every spec's
 * MFA verifications would share 127.0.0.1's per-address attempt limit with the browser's own sign-ins. The limits
 * themselves are tested in tests/auth-lockout.test.ts.
 */
export function seedingHeaders(): Record<string, string> {
  const octet = () => Math.floor(Math.random() * 256);
  return { 'x-forwarded-for': `198.${18 + (octet() % 2)}.${octet()}.${octet()}` };
}

/**
 * Calls the API of the server under test as a clinic's integration would (a key or a session token; none for a
 * public path), from a seeding address (seedingHeaders); anything but a 2xx fails the test with the body.
 */
export async function api<T = any>(key: string, method: string, pathname: string, body?: unknown, contentType = 'application/json'): Promise<T> {
  const res = await fetch(`${base()}/v1${pathname}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': contentType }), ...seedingHeaders() },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  expect(res.ok, `${method} ${pathname}: ${await res.clone().text()}`).toBe(true);
  return res.json() as Promise<T>;
}

/** Calls the ops API of the server under test, as an operator would when onboarding a clinic. */
export async function ops<T = any>(pathname: string, body: unknown): Promise<T> {
  const res = await fetch(`${base()}/v1${pathname}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${process.env.E2E_OPS_KEY}`, 'content-type': 'application/json', ...seedingHeaders() },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json() as Promise<T>;
}

/** A new clinic with one person in it. */
export async function clinicWithUser(name: string, role: string) {
  const tenant = await ops<{ id: string }>('/ops/tenants', { name });
  const email = `${role}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@clinic.test`;
  await ops(`/ops/tenants/${tenant.id}/users`, { email, password: PASSWORD, role });
  return { tenantId: tenant.id, email };
}

/** The newest message of the development outbox addressed to `address`. */
export function newestMailTo(address: string): { to: string; subject: string; link: string } {
  const dir = process.env.E2E_MAIL_DIR!;
  const mails = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ f, at: fs.statSync(path.join(dir, f)).mtimeMs }))
    .sort((a, b) => a.at - b.at || a.f.localeCompare(b.f))
    .map(({ f }) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')))
    .filter((m) => m.to === address);
  expect(mails.length, `mail to ${address}`).toBeGreaterThan(0);
  return mails[mails.length - 1];
}

export async function signInWithPassword(page: Page, email: string, password = PASSWORD) {
  await page.goto('/login');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

// The console's next-auth cookie (plain http here, so no __Secure- prefix), readable with the test's secret.
const COOKIE = 'next-auth.session-token';

export async function readSession(context: BrowserContext): Promise<JWT> {
  const cookie = (await context.cookies()).find((c) => c.name === COOKIE);
  expect(cookie, 'session cookie').toBeTruthy();
  const token = await decode({ token: cookie!.value, secret: process.env.E2E_AUTH_SECRET! });
  expect(token).toBeTruthy();
  return token!;
}

export async function writeSession(context: BrowserContext, token: JWT) {
  const value = await encode({ token, secret: process.env.E2E_AUTH_SECRET! });
  await context.addCookies([{ name: COOKIE, value, url: base(), httpOnly: true, sameSite: 'Lax' }]);
}
