import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Services } from '@/server/api/context';
import { flowClient } from './helpers/flow-run';
import { liveWeightQuestionnaire, publishedFlow, weightFlowDocument, type PinnedQuestionnaireRef } from './helpers/flow-world';
import { createTenantWithKeys, startTestApp, type Clinic, type TestApp } from './helpers/harness';

/*
 * Issue 35 items 1 and 3 over HTTP (DESIGN decision 37): the hosted page and the widget's frame come from the
 * render cache with only the CSP nonce differing per response, and the embed key cache forgets a key at once
 * when it is revoked, its origins change, its flow is published, or an experiment starts or stops. Next.js is
 * replaced by a stand-in that renders what the page depends on (the served version, the URL it was asked for,
 * the nonce) and counts its renders.
 */

const ORIGIN = 'https://clinic.example';
const OTHER = 'https://other.example';
let renders = 0;

/** Next.js's part: resolves the key as the page's procedure does (through the key cache) and writes the nonce where Next.js does. */
const standIn = (services: Services) => async (req: IncomingMessage, res: ServerResponse) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const keyId = url.pathname.startsWith('/f/') ? url.pathname.slice(3) : (url.searchParams.get('k') ?? '');
  const key = await services.servingKeys.find(services.database.db, keyId);
  const nonce = /'nonce-([^']+)'/.exec(String(req.headers['content-security-policy']))?.[1];
  if (!key) {
    res.statusCode = 404;
    res.end('This page is not available');
    return;
  }
  renders += 1;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Vary', 'rsc, Accept-Encoding');
  res.write(`<!DOCTYPE html><html><head><script nonce="${nonce}">self.boot=1</script></head>`);
  res.end(`<body><main data-version="${key.activeVersionId}" data-url="${req.url}">render ${renders}</main><script nonce="${nonce}" src="/_next/a.js"></script></body></html>`);
};

let app: TestApp;
let clinic: Clinic;
let q: PinnedQuestionnaireRef;

const nonceOf = (res: { headers: Headers }) => /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1] ?? '';
const frameAncestors = (res: { headers: Headers }) => /frame-ancestors ([^;]+)/.exec(res.headers.get('content-security-policy') ?? '')?.[1].split(' ');
const page = (path: string, headers?: Record<string, string>) => app.request('GET', path, { headers });

async function liveFlow() {
  return publishedFlow(app, { tenantId: clinic.tenantId, livemode: true }, q, weightFlowDocument('weight'), { allowedOrigins: [ORIGIN] });
}

beforeAll(async () => {
  app = await startTestApp({}, { fallback: standIn });
  clinic = await createTenantWithKeys(app, 'Render Cache Clinic');
  q = await liveWeightQuestionnaire(app, clinic, 'SKU-RC-1');
});
afterAll(() => app?.close());

describe('render cache', () => {
  it('renders a view once; every response carries its own nonce, in the CSP and the page, and the same bytes otherwise', async () => {
    const flow = await liveFlow();
    const before = renders;
    const views = [await page(`/f/${flow.embedKey}`), await page(`/f/${flow.embedKey}`), await page(`/f/${flow.embedKey}`)];
    expect(renders - before).toBe(1);
    const nonces = views.map(nonceOf);
    expect(new Set(nonces).size).toBe(3);
    views.forEach((view, i) => {
      expect(view.status).toBe(200);
      expect(view.text.split(`nonce="${nonces[i]}"`).length).toBe(3);
      expect(view.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(view.headers.get('vary')).toBe('rsc, Accept-Encoding');
      expect(view.headers.get('cache-control')).toBe('no-store');
      expect(view.headers.get('x-frame-options')).toBeNull();
      expect(frameAncestors(view)).toEqual(["'self'", ORIGIN]);
    });
    const masked = views.map((view, i) => view.text.replaceAll(nonces[i], 'NONCE'));
    expect(masked[1]).toBe(masked[0]);
    expect(masked[2]).toBe(masked[0]);
    expect(masked[0]).toContain(`data-version="${flow.versionId}"`);
  });

  it("a first burst renders once: views asked for while it renders wait for it", async () => {
    const flow = await liveFlow();
    const before = renders;
    const views = await Promise.all(Array.from({ length: 6 }, () => page(`/f/${flow.embedKey}`)));
    expect(renders - before).toBe(1);
    expect(new Set(views.map((v) => v.text.replaceAll(nonceOf(v), 'NONCE'))).size).toBe(1);
    expect(new Set(views.map(nonceOf)).size).toBe(6);
  });

  it('gzips for a client that accepts it, as Next.js does', async () => {
    const flow = await liveFlow();
    await page(`/f/${flow.embedKey}`);
    const res = await fetch(`${app.baseUrl}/f/${flow.embedKey}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    const text = await res.text(); // fetch inflates
    expect(text.split(`nonce="${nonceOf(res)}"`).length).toBe(3);
  });

  it('parameters the page reads make their own render; others (click ids) neither render again nor reach the page', async () => {
    const flow = await liveFlow();
    const before = renders;
    await page(`/f/${flow.embedKey}?fbclid=1`);
    const again = await page(`/f/${flow.embedKey}?fbclid=2&utm_source=ad`);
    expect(renders - before).toBe(1);
    expect(again.text).toContain(`data-url="/f/${flow.embedKey}"`);
    const campaign = await page(`/f/${flow.embedKey}?gclid=9&cid=spring`);
    expect(renders - before).toBe(2);
    expect(campaign.text).toContain(`data-url="/f/${flow.embedKey}?cid=spring"`);
  });

  it('the frame is cached per framing page: an allowed parent, a refused one, and a visit outside any frame render apart', async () => {
    const flow = await liveFlow();
    const path = `/embed/frame?k=${flow.embedKey}&t=flow`;
    const before = renders;
    await page(path, { referer: `${ORIGIN}/shop`, 'sec-fetch-dest': 'iframe' });
    await page(path, { referer: `${ORIGIN}/other-page`, 'sec-fetch-dest': 'iframe' });
    expect(renders - before).toBe(1);
    await page(path, { referer: `${OTHER}/`, 'sec-fetch-dest': 'iframe' });
    await page(path);
    expect(renders - before).toBe(3);
    // The questionnaire a t=intake frame shows is not named by the key: rendered every time.
    await page(`/embed/frame?k=${flow.embedKey}&t=intake&q=weight`);
    await page(`/embed/frame?k=${flow.embedKey}&t=intake&q=weight`);
    expect(renders - before).toBe(5);
  });

  it('client navigations and HEAD go to Next.js every time', async () => {
    const flow = await liveFlow();
    await page(`/f/${flow.embedKey}`);
    const before = renders;
    await page(`/f/${flow.embedKey}`, { rsc: '1' });
    await app.request('HEAD', `/f/${flow.embedKey}`);
    expect(renders - before).toBe(2);
  });
});

describe('the key cache forgets at once', () => {
  it('a revoked key: the next page view and the next session are refused', async () => {
    const flow = await liveFlow();
    const client = flowClient(app, flow.embedKey);
    expect((await page(`/f/${flow.embedKey}`)).status).toBe(200);
    expect((await client.start()).status).toBe(201);
    const revoked = await app.request('DELETE', `/v1/embed-keys/${flow.embedKey}`, { key: clinic.liveKey });
    expect(revoked.status, revoked.text).toBe(200);
    const gone = await page(`/f/${flow.embedKey}`);
    expect(gone.status).toBe(404);
    expect(frameAncestors(gone)).toEqual(["'self'"]);
    expect((await page(`/embed/frame?k=${flow.embedKey}&t=flow`)).status).toBe(404);
    expect((await client.start()).status).toBe(404);
  });

  it("changed origins: the next page's frame-ancestors and the next session's origin check follow", async () => {
    const flow = await liveFlow();
    expect(frameAncestors(await page(`/f/${flow.embedKey}`))).toEqual(["'self'", ORIGIN]);
    expect((await flowClient(app, flow.embedKey, OTHER).start()).status).toBe(403);
    const patched = await app.request('PATCH', `/v1/embed-keys/${flow.embedKey}`, { key: clinic.liveKey, body: { allowedOrigins: [OTHER] } });
    expect(patched.status, patched.text).toBe(200);
    expect(frameAncestors(await page(`/f/${flow.embedKey}`))).toEqual(["'self'", OTHER]);
    expect((await flowClient(app, flow.embedKey, OTHER).start()).status).toBe(201);
    expect((await flowClient(app, flow.embedKey, ORIGIN).start()).status).toBe(403);
  });

  it('a publication (a theme change): the next page view shows the new version', async () => {
    const flow = await liveFlow();
    expect((await page(`/f/${flow.embedKey}`)).text).toContain(`data-version="${flow.versionId}"`);
    const document = weightFlowDocument('weight');
    document.theme = { tokens: { primary: '#1d4ed8' } };
    expect((await app.request('PATCH', `/v1/flows/${flow.flowId}`, { key: clinic.liveKey, body: { document } })).status).toBe(200);
    const published = await app.request('POST', `/v1/flows/${flow.flowId}/publish`, { key: clinic.liveKey, body: {} });
    expect(published.status, published.text).toBe(200);
    expect(published.body.status).toBe('published');
    const next = await page(`/f/${flow.embedKey}`);
    expect(next.text).toContain(`data-version="${published.body.version.id}"`);
    expect((await flowClient(app, flow.embedKey).definition()).body.versionId).toBe(published.body.version.id);
  });

  it('an experiment started, then stopped: the next session is assigned an arm, then none', async () => {
    const flow = await liveFlow();
    const client = flowClient(app, flow.embedKey);
    expect((await client.start()).body.arm).toBeNull();
    const overrides = [{ stepId: 'welcome', blocks: { headline: 'Feel better, with a clinician' } }];
    const exp = await app.request('POST', `/v1/flows/${flow.flowId}/experiments`, { key: clinic.liveKey, body: { name: 'Headline', splitPct: 50, overrides } });
    expect(exp.status, exp.text).toBe(201);
    expect((await client.start()).body.arm).not.toBeNull();
    expect((await app.request('POST', `/v1/flows/experiments/${exp.body.id}/stop`, { key: clinic.liveKey, body: {} })).status).toBe(200);
    expect((await client.start()).body.arm).toBeNull();
  });

  it.skipIf(!process.env.DATABASE_URL)('on PostgreSQL, a change made by another process reaches this one by NOTIFY', { timeout: 60_000 }, async () => {
    const flow = await liveFlow();
    const other = await startTestApp({ DATABASE_URL: app.databaseUrl });
    try {
      expect((await page(`/f/${flow.embedKey}`)).status).toBe(200);
      expect((await flowClient(app, flow.embedKey).start()).status).toBe(201);
      const otherClinicKey = await other.request('DELETE', `/v1/embed-keys/${flow.embedKey}`, { key: clinic.liveKey });
      expect(otherClinicKey.status, otherClinicKey.text).toBe(200);
      await vi.waitFor(async () => expect((await page(`/f/${flow.embedKey}`)).status).toBe(404), { timeout: 10_000, interval: 20 });
      expect((await flowClient(app, flow.embedKey).start()).status).toBe(404);
    } finally {
      await other.close();
    }
  });

  it.skipIf(!process.env.DATABASE_URL)('on PostgreSQL, a LISTEN connection lost and re-opened forgets every key (a NOTIFY may have been missed)', { timeout: 60_000 }, async () => {
    const flow = await liveFlow();
    expect((await page(`/f/${flow.embedKey}`)).status).toBe(200);
    // Revoked behind the domain's back: nothing is announced, so only the resume can make this process see it.
    await app.services.database.db.execute(sql`update embed_keys set revoked_at = now() where id = ${flow.embedKey}`);
    expect((await page(`/f/${flow.embedKey}`)).status).toBe(200);
    // The process's one LISTEN connection (its last statement was a LISTEN; the pool's never is).
    await app.services.database.db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'LISTEN %'`);
    await vi.waitFor(async () => expect((await page(`/f/${flow.embedKey}`)).status).toBe(404), { timeout: 20_000, interval: 50 });
  });
});
