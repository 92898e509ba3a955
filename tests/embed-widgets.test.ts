import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedKeys } from '@/db/schema';
import { eq } from 'drizzle-orm';
import { createTenantWithKeys, startTestApp, type Clinic, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, weightDocument } from './helpers/intake-world';
import { publishedFlow, weightFlowDocument } from './helpers/flow-world';
import { seedDemo } from '@/server/domain/seed/demo';
import { demoFlowEmbedKey } from '@/server/domain/seed/demo-flow';

/*
 * Issue 23 items 3 and 4 at the HTTP level (DESIGN decision 25): the widget scripts (type, caching by version,
 * revalidation), the per-key CSP of the framable patient pages (frame-ancestors = 'self' + the key's allowed
 * origins, a nonce, nothing third-party) and the demo page. The pages themselves render in Next.js; the headers
 * are the custom server's, so they are tested here without it.
 */

const ORIGINS = ['https://clinic.example', 'https://*.shop.example'];
const SCRIPTS = ['/embed/flow.js', '/embed/v1/flow.js', '/embed/intake.js', '/embed/v1/intake.js'];

let app: TestApp;
let clinic: Clinic;
let flowKey: string;

const csp = (res: { headers: Headers }) => res.headers.get('content-security-policy') ?? '';
const directive = (policy: string, name: string) =>
  policy
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find(([n]) => n === name)
    ?.slice(1);

beforeAll(async () => {
  app = await startTestApp({ PUBLIC_URL: 'https://rail.example.test' });
  clinic = await createTenantWithKeys(app, 'Northside Clinic');
  const scope = { tenantId: clinic.tenantId, livemode: true };
  const q = await approvedQuestionnaire(app, scope, weightDocument('weight'));
  ({ embedKey: flowKey } = await publishedFlow(app, scope, q, weightFlowDocument('weight'), { allowedOrigins: ORIGINS }));
});
afterAll(() => app?.close());

describe('widget scripts', () => {
  it.each(SCRIPTS)('%s is a small dependency-free script, cached by version', async (path) => {
    const res = await app.request('GET', path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const maxAge = Number(/max-age=(\d+)/.exec(res.headers.get('cache-control') ?? '')?.[1]);
    if (path.includes('/v1/')) expect(maxAge).toBeGreaterThanOrEqual(86_400);
    else expect(maxAge).toBeLessThanOrEqual(300);
    expect(res.text.length).toBeLessThan(6_000);
    // Dependency-free: it loads nothing and names no address but the one it was loaded from.
    expect(res.text).not.toMatch(/https?:\/\//);
    expect(res.text).not.toMatch(/\bimport\b|\brequire\(/);
    expect(res.text).toContain(`params.set('t', "${path.includes('flow') ? 'flow' : 'intake'}")`);
    // Origins checked both ways: the frame's messages count only from this service and this iframe.
    expect(res.text).toContain('e.origin !== service || e.source !== frame.contentWindow');

    const again = await app.request('GET', path, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await fetch(`${app.baseUrl}/embed/v1/flow.js`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
    const post = await app.request('POST', '/embed/v1/flow.js', { body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('the versioned and unversioned scripts are the same program', async () => {
    const [v1, latest] = await Promise.all([app.request('GET', '/embed/v1/intake.js'), app.request('GET', '/embed/intake.js')]);
    expect(v1.text).toBe(latest.text);
  });
});

describe('framable patient pages', () => {
  it.each([
    ['hosted flow page', () => `/f/${flowKey}`],
    ['widget frame', () => `/embed/frame?k=${flowKey}&t=flow&cid=spring`],
  ])("the %s may be framed by the key's origins only, under a nonce CSP with nothing third-party", async (_name, path) => {
    const res = await app.request('GET', path());
    const policy = csp(res);
    expect(directive(policy, 'frame-ancestors')).toEqual(["'self'", ...ORIGINS]);
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(directive(policy, 'script-src')).toEqual(expect.arrayContaining([expect.stringMatching(/^'nonce-[A-Za-z0-9+/]{22}==/), "'strict-dynamic'"]));
    expect(directive(policy, 'default-src')).toEqual(["'self'"]);
    expect(directive(policy, 'connect-src')).toEqual(["'self'"]);
    expect(directive(policy, 'object-src')).toEqual(["'none'"]);
    // Every source outside frame-ancestors is a keyword or data: for images: no other origin can be reached.
    const sources = policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter(([n]) => n !== 'frame-ancestors')
      .flatMap(([, ...s]) => s);
    expect(sources.filter((s) => !/^'[a-z-]+'$/.test(s) && !/^'nonce-/.test(s) && s !== 'data:')).toEqual([]);

    const second = await app.request('GET', path());
    expect(directive(csp(second), 'script-src')).not.toEqual(directive(policy, 'script-src'));
  });

  it('an unknown, malformed or revoked key is framable by the service alone', async () => {
    const revoked = await app.request('POST', '/v1/embed-keys', { key: clinic.liveKey, body: { allowedOrigins: ['https://gone.example'] } });
    expect(revoked.status).toBe(201);
    await app.request('DELETE', `/v1/embed-keys/${revoked.body.id}`, { key: clinic.liveKey });
    for (const path of [`/f/emb_${'x'.repeat(24)}`, '/f/not-a-key', `/embed/frame?k=${revoked.body.id}&t=intake`, '/embed/frame']) {
      const res = await app.request('GET', path);
      expect(directive(csp(res), 'frame-ancestors'), path).toEqual(["'self'"]);
    }
  });

  it('follows the key: an origin added later may frame the page at once', async () => {
    const key = await app.request('POST', '/v1/embed-keys', { key: clinic.liveKey, body: { allowedOrigins: ['https://a.example'] } });
    await app.request('PATCH', `/v1/embed-keys/${key.body.id}`, { key: clinic.liveKey, body: { allowedOrigins: ['https://a.example', 'http://localhost:4000'] } });
    const res = await app.request('GET', `/embed/frame?k=${key.body.id}&t=intake&q=weight`);
    expect(directive(csp(res), 'frame-ancestors')).toEqual(["'self'", 'https://a.example', 'http://localhost:4000']);
  });

  it('other pages keep refusing every frame', async () => {
    for (const path of ['/login', '/f', `/f/${flowKey}/extra`, '/embed/other']) {
      const res = await app.request('GET', path);
      expect(directive(csp(res), 'frame-ancestors'), path).toEqual(["'none'"]);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });

  it('the hosted intake page /i/{token} runs scripts only under its own nonce, and no one may frame it (issue 34 item 11)', async () => {
    const [first, second] = [await app.request('GET', '/i/some-token'), await app.request('GET', '/i/some-token')];
    for (const res of [first, second]) {
      const policy = csp(res);
      expect(directive(policy, 'script-src')).toEqual(["'self'", expect.stringMatching(/^'nonce-[A-Za-z0-9+/]{22}==/), "'strict-dynamic'"]);
      expect(directive(policy, 'default-src')).toEqual(["'self'"]);
      expect(directive(policy, 'frame-ancestors')).toEqual(["'none'"]);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    // A fresh nonce per response.
    expect(directive(csp(first), 'script-src')?.[1]).not.toBe(directive(csp(second), 'script-src')?.[1]);
  });
});

describe('/embed/demo', () => {
  it('without a mode: a page to choose one; a bad mode: 400 with the choice', async () => {
    const res = await app.request('GET', '/embed/demo');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('mode=flow');
    const bad = await app.request('GET', '/embed/demo?mode=popup');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('mode=intake');
  });

  it('without a demo clinic: a page that says how to get a key, never a bare 404 (issue 34 item 10)', async () => {
    for (const mode of ['flow', 'intake']) {
      const res = await app.request('GET', `/embed/demo?mode=${mode}`);
      expect(res.status).toBe(200);
      expect(res.text).toContain('no demo clinic');
      expect(res.text).toContain('SEED_DEMO=true');
      expect(res.text).toContain('name="k"');
    }
  });

  it('shows the widget for a sandbox key given as k (and q for intake); refuses a live key or a malformed one, escaping nothing back', async () => {
    const clinic = await createTenantWithKeys(app);
    const make = async (key: string) => {
      const res = await app.request('POST', '/v1/embed-keys', { key, body: { name: 'Demo page', allowedOrigins: [] } });
      expect(res.status, res.text).toBe(201);
      return res.body.id as string;
    };
    const [sandboxKey, liveKey] = [await make(clinic.sandboxKey), await make(clinic.liveKey)];
    const flow = await app.request('GET', `/embed/demo?mode=flow&k=${sandboxKey}`);
    expect(flow.status).toBe(200);
    expect(flow.text).toContain(`<script src="/embed/v1/flow.js" data-embed-key="${sandboxKey}" data-campaign="demo" async></script>`);
    const intake = await app.request('GET', `/embed/demo?mode=intake&k=${sandboxKey}&q=weight-management`);
    expect(intake.text).toContain(`data-embed-key="${sandboxKey}" data-campaign="demo" data-questionnaire="weight-management"`);
    const live = await app.request('GET', `/embed/demo?mode=flow&k=${liveKey}`);
    expect(live.status).toBe(200);
    expect(live.text).toContain('live key');
    expect(live.text).not.toContain('data-embed-key');
    for (const bad of ['emb_"><script>alert(1)</script>', 'nk_sandbox_123', `${sandboxKey}&q=<b>`]) {
      const res = await app.request('GET', `/embed/demo?mode=intake&k=${encodeURIComponent(bad).replace('%26q%3D', '&q=')}`);
      expect(res.status).toBe(400);
      expect(res.text).not.toContain('<script>alert');
      expect(res.text).not.toContain('data-embed-key');
    }
  });

  it("shows each widget with the seeded demo clinic's sandbox key, and stops when the key is revoked", { timeout: 60_000 }, async () => {
    const demo = await startTestApp();
    try {
      const seeded = await seedDemo(demo.services.database.db);
      expect(seeded).not.toBeNull();
      const embedKey = await demoFlowEmbedKey(demo.services.database.db);
      expect(embedKey).toMatch(/^emb_/);

      const flow = await demo.request('GET', '/embed/demo?mode=flow');
      expect(flow.status).toBe(200);
      expect(flow.text).toContain(`<script src="/embed/v1/flow.js" data-embed-key="${embedKey}" data-campaign="demo" async></script>`);
      expect(directive(csp(flow), 'frame-ancestors')).toEqual(["'none'"]);
      // The frame it loads is this service's own page, so the key's empty origin list still lets it in.
      const frame = await demo.request('GET', `/embed/frame?k=${embedKey}&t=flow&cid=demo`);
      expect(directive(csp(frame), 'frame-ancestors')).toEqual(["'self'"]);

      const intake = await demo.request('GET', '/embed/demo?mode=intake');
      expect(intake.status).toBe(200);
      expect(intake.text).toContain(`<script src="/embed/v1/intake.js" data-embed-key="${embedKey}" data-campaign="demo" data-questionnaire="weight-management" async></script>`);

      await demo.services.database.db.update(embedKeys).set({ revokedAt: new Date() }).where(eq(embedKeys.id, embedKey!));
      for (const mode of ['flow', 'intake']) {
        const gone = await demo.request('GET', `/embed/demo?mode=${mode}`);
        expect(gone.status).toBe(200);
        expect(gone.text).toContain('no demo clinic');
        expect(gone.text).not.toContain(embedKey);
      }
    } finally {
      await demo.close();
    }
  });
});
