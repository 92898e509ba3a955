import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPatientPages } from '@/scripts/build-patient-pages.mjs';
import { liveWeightQuestionnaire, publishedFlow, weightFlowDocument, type PinnedQuestionnaireRef } from './helpers/flow-world';
import { createTenantWithKeys, startTestApp, type Clinic, type TestApp } from './helpers/harness';

/*
 * Issue 55 item 1 over HTTP: the hosted flow page and the widget's frame are rendered by the custom server
 * (app/_patient-pages/) from assets built as `npm run build` builds them, hydrated by one script under /_fr/
 * that carries this response's nonce. What the server cannot render (an unknown key, the intake frame) still
 * reaches Next.js, here a stand-in that counts what it is asked.
 */

const ORIGIN = 'https://clinic.example';
const nextAsked: string[] = [];
const standIn = () => async (req: IncomingMessage, res: ServerResponse) => {
  nextAsked.push(req.url ?? '');
  res.statusCode = 404;
  res.end('Next.js stand-in');
};

let app: TestApp;
let clinic: Clinic;
let q: PinnedQuestionnaireRef;
let assetsDir: string;

const nonceOf = (res: { headers: Headers }) => /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1] ?? '';
const scriptsOf = (html: string) => [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
const propsOf = (html: string) => JSON.parse(/<script type="application\/json" id="fr-props">([^<]*)<\/script>/.exec(html)![1]) as Record<string, unknown>;

beforeAll(async () => {
  assetsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fr-patient-pages-'));
  await buildPatientPages(assetsDir);
  app = await startTestApp({}, { fallback: standIn, patientPagesDir: assetsDir });
  clinic = await createTenantWithKeys(app, 'Patient Pages Clinic');
  q = await liveWeightQuestionnaire(app, clinic, 'SKU-PP-1');
}, 60_000);
afterAll(async () => {
  await app?.close();
  fs.rmSync(assetsDir, { recursive: true, force: true });
});

describe('the patient pages rendered without Next.js', () => {
  it('the hosted page: the first step in the HTML, the stylesheet inline, one module script with the response nonce, the props it hydrates with', async () => {
    const flow = await publishedFlow(app, { tenantId: clinic.tenantId, livemode: true }, q, weightFlowDocument('weight'), { allowedOrigins: [ORIGIN] });
    const asked = nextAsked.length;
    const views = [await app.request('GET', `/f/${flow.embedKey}?cid=spring-1&gclid=x`), await app.request('GET', `/f/${flow.embedKey}?cid=spring-1`)];
    expect(nextAsked.length).toBe(asked);
    for (const view of views) {
      expect(view.status).toBe(200);
      expect(view.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(view.text).toContain('<title>Lose weight with a clinician</title>');
      expect(view.text).toMatch(/<h1[^>]*>Lose weight with a clinician<\/h1>/);
      expect(view.text).toMatch(/<style>\/\*! tailwindcss[\s\S]*?<\/style><\/head>/);
      expect(view.text).not.toContain('/_next/');
      const scripts = scriptsOf(view.text);
      expect(scripts).toEqual([expect.stringMatching(/^<script type="module" src="\/_fr\/flow-page-[\w-]{12}\.js" nonce="([^"]+)">$/), '<script type="application/json" id="fr-props">']);
      expect(scripts[0]).toContain(`nonce="${nonceOf(view)}"`);
      expect(propsOf(view.text)).toMatchObject({ embedKey: flow.embedKey, campaign: 'spring-1', initial: { steps: expect.any(Array) } });
    }
    expect(nonceOf(views[0])).not.toBe(nonceOf(views[1]));
  });

  it('its script: compressed as accepted, cached for good; anything else under /_fr/ is a 404 and other methods a 405', async () => {
    const flow = await publishedFlow(app, { tenantId: clinic.tenantId, livemode: true }, q, weightFlowDocument('weight'));
    const view = await app.request('GET', `/f/${flow.embedKey}`);
    const src = /src="(\/_fr\/[^"]+)"/.exec(view.text)![1];
    const plain = await fetch(app.baseUrl + src, { headers: { 'accept-encoding': 'identity' } });
    const body = await plain.text();
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // The page's own hydration (it finds the root and the props by their ids), on Preact: nothing of React's client.
    expect(body).toContain('"fr-props"');
    expect(body).not.toContain('react.dev/errors');
    // What a phone downloads: the script, compressed (issue 55: JavaScript and CSS under 120 KB per page).
    for (const encoding of ['br', 'gzip']) {
      const res = await fetch(app.baseUrl + src, { headers: { 'accept-encoding': encoding }, decompress: false } as RequestInit);
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(Number(res.headers.get('content-length'))).toBeLessThan(100 * 1024);
    }
    expect((await app.request('POST', src)).status).toBe(405);
    const unknown = await app.request('GET', '/_fr/flow-page-nothing.js');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('route_not_found');
  });

  it('the frame: for an allowed site with its origin in the props; refused in a frame on any other site, with no script at all', async () => {
    const flow = await publishedFlow(app, { tenantId: clinic.tenantId, livemode: true }, q, weightFlowDocument('weight'), { allowedOrigins: [ORIGIN] });
    const path = `/embed/frame?k=${flow.embedKey}&t=flow&theme=compact&shop=shop-1`;
    const allowed = await app.request('GET', path, { headers: { referer: `${ORIGIN}/page`, 'sec-fetch-dest': 'iframe' } });
    expect(allowed.status).toBe(200);
    expect(propsOf(allowed.text)).toMatchObject({ embedKey: flow.embedKey, embed: { parentOrigin: ORIGIN, shop: 'shop-1', compact: true } });
    const refused = await app.request('GET', path, { headers: { referer: 'https://elsewhere.example/', 'sec-fetch-dest': 'iframe' } });
    expect(refused.status).toBe(200);
    expect(refused.text).toContain('This form cannot be shown on this website');
    expect(scriptsOf(refused.text)).toEqual([]);
  });

  it('what it does not render reaches Next.js: an unknown key, the intake frame', async () => {
    const flow = await publishedFlow(app, { tenantId: clinic.tenantId, livemode: true }, q, weightFlowDocument('weight'));
    const asked = nextAsked.length;
    expect((await app.request('GET', '/f/emb_000000000000000000000000')).status).toBe(404);
    expect((await app.request('GET', `/embed/frame?k=${flow.embedKey}&t=intake&q=weight`)).status).toBe(404);
    expect(nextAsked.slice(asked)).toEqual(['/f/emb_000000000000000000000000', `/embed/frame?k=${flow.embedKey}&t=intake&q=weight`]);
  });

  it('a headline with markup stays text: escaped in the title and the page, and unable to close the props script', async () => {
    const doc = weightFlowDocument('weight');
    const landing = doc.steps[0] as { blocks: { headline: string } };
    landing.blocks.headline = 'Feel better </script><script>alert(1)</script> & <b>now</b>';
    const flow = await publishedFlow(app, { tenantId: clinic.tenantId, livemode: true }, q, doc);
    const view = await app.request('GET', `/f/${flow.embedKey}`);
    expect(view.status).toBe(200);
    expect(view.text).not.toContain('<script>alert(1)</script>');
    expect(view.text).not.toContain('<b>now</b>');
    expect(scriptsOf(view.text)).toHaveLength(2);
    expect((propsOf(view.text).initial as { steps: { blocks?: { headline?: string } }[] }).steps[0].blocks?.headline).toBe(landing.blocks.headline);
  });
});
