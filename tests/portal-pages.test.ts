import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPatientPages } from '@/scripts/build-patient-pages.mjs';
import { countRows, expectEnvelope, startTestApp, type TestApp } from './helpers/harness';
import { ordersWorld } from './helpers/orders-world';
import { HOLDING, orderIn, type World } from './helpers/portal-orders';
import { anyAddress, loginMailCount, nextLoginMail, portalKey } from './helpers/portal-world';

/*
 * Issue 55 item 1, the patient portal: its pages `/p/{embedKey}`, `…/sign-in` and `…/orders/{id}` are rendered by
 * the custom server (app/_patient-pages/) and hydrated by one script under /_fr/ with this response's nonce, and
 * its writes are same-origin JSON posts to `/p/{embedKey}/actions/{name}` that keep the session in the HttpOnly
 * cookie (DESIGN decision 39). Next.js is a stand-in here that counts what reaches it: nothing of the portal.
 */

const PATIENT = { email: 'quinn.ca@plantedmail.test', dateOfBirth: '1971-07-17' };
const nextAsked: string[] = [];
const standIn = () => async (req: IncomingMessage, res: ServerResponse) => {
  nextAsked.push(`${req.method} ${req.url}`);
  res.statusCode = 404;
  res.end('Next.js stand-in');
};

let app: TestApp;
let w: World;
let embedKey: string;
let ownOrder: string;
let neighbourOrder: string;
let assetsDir: string;

const scriptsOf = (html: string) => [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
const propsOf = (html: string) => JSON.parse(/<script type="application\/json" id="fr-props">([^<]*)<\/script>/.exec(html)![1]) as { view: { kind: string } };
const nonceOf = (res: { headers: Headers }) => /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1] ?? '';
const page = (p: string, cookie?: string) => app.request('GET', p, { headers: { 'x-forwarded-for': anyAddress(), ...(cookie ? { cookie } : {}) } });
const act = (name: string, body: unknown, headers: Record<string, string> = {}) =>
  app.request('POST', `/p/${embedKey}/actions/${name}`, { body, headers: { origin: new URL(app.baseUrl).origin, 'x-forwarded-for': anyAddress(), ...headers } });
const cookieOf = (res: { headers: Headers }) => res.headers.get('set-cookie') ?? '';
const tokenIn = (setCookie: string) => /^fr_patient=([^;]*)/.exec(setCookie)![1];

/** Signs in through the portal's own actions and answers the cookie a browser would now send. */
async function signIn(): Promise<string> {
  const before = loginMailCount(app, PATIENT.email);
  expect((await act('request-code', PATIENT)).status).toBe(200);
  const mail = await nextLoginMail(app, PATIENT.email, before);
  const verified = await act('verify-code', { email: PATIENT.email, code: mail.code });
  expect(verified.status, verified.text).toBe(200);
  return `fr_patient=${tokenIn(cookieOf(verified))}`;
}

beforeAll(async () => {
  assetsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-portal-pages-'));
  await buildPatientPages(assetsDir);
  app = await startTestApp({ RUN_WORKER: 'true', TRUST_PROXY: 'loopback', ORDER_SYNC_INTERVAL_MS: '600000', EMBED_RATE_LIMIT: '100000' }, { fallback: standIn, patientPagesDir: assetsDir });
  w = await ordersWorld(app, 'Portal Pages Clinic', { mode: 'live', ...HOLDING });
  embedKey = await portalKey(app, w.liveKey);
  ownOrder = await orderIn(app, w, w.patients.ca, 'pending_approval');
  neighbourOrder = await orderIn(app, w, w.patients.tx, 'pending_approval');
}, 90_000);
afterAll(async () => {
  await app?.close();
  fs.rmSync(assetsDir, { recursive: true, force: true });
});

describe('the portal pages rendered without Next.js', () => {
  it('a signed-out visitor gets the sign-in page: one module script with the nonce, the stylesheet inline, never cached or framed', async () => {
    const res = await page(`/p/${embedKey}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.text).toContain('<title>Portal Pages Clinic · Patient portal</title>');
    expect(res.text).toContain('<meta name="referrer" content="no-referrer">');
    expect(res.text).toMatch(/<h1[^>]*>Sign in to see your orders<\/h1>/);
    expect(res.text).not.toContain('/_next/');
    expect(scriptsOf(res.text)).toEqual([`<script type="module" src="${scriptsOf(res.text)[0]!.match(/src="([^"]+)"/)![1]}" nonce="${nonceOf(res)}">`, '<script type="application/json" id="fr-props">']);
    expect(scriptsOf(res.text)[0]).toMatch(/src="\/_fr\/portal-page-[\w-]{12}\.js"/);
    expect(propsOf(res.text).view).toEqual({ kind: 'sign-in', title: 'Sign in to see your orders' });
    expect(nextAsked.filter((r) => r.includes('/p/'))).toEqual([]);
  });

  it('serves the portal script compressed and immutable', async () => {
    const html = (await page(`/p/${embedKey}`)).text;
    const src = /src="(\/_fr\/portal-page-[^"]+)"/.exec(html)![1];
    const res = await fetch(app.baseUrl + src, { headers: { 'accept-encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // What travels: the brotli form made at build time (fetch hands the test the decoded script).
    expect(Number(res.headers.get('content-length'))).toBeLessThan(100_000);
    expect((await res.text()).length).toBeGreaterThan(Number(res.headers.get('content-length')));
  });

  it('an unknown key, someone else’s order and a malformed order id are one 404 page with no script', async () => {
    const cookie = await signIn();
    const answers = [await page('/p/ek_doesnotexist00000000000000'), await page(`/p/${embedKey}/orders/${neighbourOrder}`, cookie), await page(`/p/${embedKey}/orders/not-an-id`, cookie)];
    for (const res of answers) {
      expect(res.status).toBe(404);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.text).toMatch(/<h1[^>]*>This page is not available<\/h1>/);
      expect(scriptsOf(res.text)).toEqual([]);
    }
    expect(answers[1]!.text).toBe(answers[2]!.text);
  });

  it('signs in through the actions: the session only in an HttpOnly, SameSite=Strict cookie scoped to the portal; the pages then show the patient’s own', async () => {
    const before = loginMailCount(app, PATIENT.email);
    const asked = await act('request-code', PATIENT);
    expect(asked.status).toBe(200);
    expect(asked.body.ok).toBe(true);
    const mail = await nextLoginMail(app, PATIENT.email, before);
    const verified = await act('verify-code', { email: PATIENT.email, code: mail.code });
    expect(verified.body).toEqual({ ok: true });
    expect(verified.text).not.toContain(tokenIn(cookieOf(verified)));
    expect(cookieOf(verified)).toMatch(new RegExp(`^fr_patient=[^;]+; Path=/p/${embedKey}; Max-Age=43200; HttpOnly; SameSite=Strict$`));
    const cookie = `fr_patient=${tokenIn(cookieOf(verified))}`;

    const home = await page(`/p/${embedKey}`, cookie);
    expect(home.text).toMatch(/<h1[^>]*>Hello, Quinn<\/h1>/);
    expect(propsOf(home.text).view.kind).toBe('home');
    expect(home.text).toContain(`/p/${embedKey}/orders/${ownOrder}`);
    const order = await page(`/p/${embedKey}/orders/${ownOrder}`, cookie);
    expect(order.status).toBe(200);
    expect(order.text).toContain('<title>Your order · Patient portal</title>');
    expect(propsOf(order.text).view.kind).toBe('order');
    // The mail's link page renders its token for the browser to exchange; it exchanges nothing itself.
    const link = await page(`/p/${embedKey}/sign-in?t=${encodeURIComponent(mail.linkToken)}`);
    expect(propsOf(link.text).view).toEqual({ kind: 'link', token: mail.linkToken });
    const exchanged = await act('verify-link', { token: mail.linkToken });
    expect(exchanged.status, exchanged.text).toBe(401);
  });

  it('answers a sign-in request the same whether or not the clinic has the person', async () => {
    // The other patient of the clinic, so this patient's five code requests an hour stay for the other tests.
    const other = { email: 'quinn.tx@plantedmail.test', dateOfBirth: '1971-07-17' };
    const known = await act('request-code', other);
    const unknown = await act('request-code', { email: 'nobody.here@plantedmail.test', dateOfBirth: '1971-07-17' });
    const wrongBirthday = await act('request-code', { ...other, dateOfBirth: '1971-07-18' });
    for (const res of [unknown, wrongBirthday]) {
      expect(res.status).toBe(known.status);
      expect(res.text).toBe(known.text);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
  });

  it('changes shipping and notices as the signed-in patient, and answers the order as it now stands', async () => {
    const cookie = await signIn();
    const saved = await act('shipping', { id: ownOrder, address: { line1: '500 Congress Ave', line2: null, city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' } }, { cookie });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.order.id).toBe(ownOrder);
    expect(saved.body.order.shippingAddress.state).toBe('TX');
    const notices = await act('notifications', { email: false }, { cookie });
    expect(notices.body).toMatchObject({ ok: true, notifications: { email: false } });
    // Someone else's order is a 404, as on /v1.
    expectEnvelope(await act('shipping', { id: neighbourOrder, address: { line1: '1 A St', city: 'Austin', state: 'TX', postalCode: '78701', country: 'US' } }, { cookie }), 404, 'not_found');
    // Without the cookie there is no patient.
    expectEnvelope(await act('notifications', { email: true }), 401, 'authentication_error', 'invalid_patient_session');
  });

  it('signs out: the session ends on the server and the cookie is cleared', async () => {
    const cookie = await signIn();
    const out = await act('sign-out', {}, { cookie });
    expect(out.status).toBe(200);
    expect(cookieOf(out)).toBe(`fr_patient=; Path=/p/${embedKey}; Max-Age=0; HttpOnly; SameSite=Strict`);
    const after = await page(`/p/${embedKey}`, cookie);
    expect(propsOf(after.text).view.kind).toBe('sign-in');
  });
});

describe("the portal's actions refuse what is not the portal's own page, and write nothing", () => {
  it('a cross-site or origin-less post, a form post, a body for another key, an unknown action or field', async () => {
    const challenges = await countRows(app, 'patient_login_challenges');
    const sessions = await countRows(app, 'patient_sessions');
    expectEnvelope(await act('request-code', PATIENT, { origin: 'https://evil.example' }), 403, 'permission_error', 'cross_origin_request');
    expectEnvelope(await act('request-code', PATIENT, { 'sec-fetch-site': 'cross-site' }), 403, 'permission_error', 'cross_origin_request');
    const noOrigin = await app.request('POST', `/p/${embedKey}/actions/request-code`, { body: PATIENT });
    expectEnvelope(noOrigin, 403, 'permission_error', 'cross_origin_request');
    const form = await app.request('POST', `/p/${embedKey}/actions/request-code`, {
      rawBody: new URLSearchParams(PATIENT).toString(),
      headers: { origin: new URL(app.baseUrl).origin, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectEnvelope(form, 415, 'validation_error', 'unsupported_media_type');
    expectEnvelope(await act('request-code', { ...PATIENT, embedKey: 'ek_other' }), 400, 'validation_error');
    expectEnvelope(await act('request-code', [PATIENT]), 400, 'validation_error');
    expectEnvelope(await act('constructor', {}), 404, 'not_found', 'route_not_found');
    expectEnvelope(await act('verify-code', { email: PATIENT.email, code: '12' }), 400, 'validation_error');
    expect(await countRows(app, 'patient_login_challenges')).toBe(challenges);
    expect(await countRows(app, 'patient_sessions')).toBe(sessions);
  });

  it('takes POST only, and answers no other origin’s preflight', async () => {
    const get = await app.request('GET', `/p/${embedKey}/actions/request-code`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST, OPTIONS');
    const preflight = await app.request('OPTIONS', `/p/${embedKey}/actions/request-code`, { headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    // The pages themselves take no POST any more (Next.js's server actions are gone).
    expect((await app.request('POST', `/p/${embedKey}`, { body: {} })).status).toBe(405);
  });
});
