import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderToString } from 'react-dom/server';
import { EmbedRefused } from '@/components/flows/embed-refused';
import { FlowRunner } from '@/components/flows/flow-runner';
import type { PublicFlow } from '@/components/flows/types';
import type { Services } from '@/server/api/context';
import { publicCallerOf, statusOf } from '@/web/trpc/public-caller';
import { EMBED_KEY_SHAPE, EMBED_PARENT_HEADER, FRAME_PATH } from '@/server/lib/embed-addresses';
import { campaignOf, hostedPageTitle, paramOf } from './flow-page-params';
import type { FlowPageProps } from './flow-page-props';
import type { PatientPageAssets } from './patient-assets';
import { patientDocument } from './patient-document';

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** What a view renders: the flow runner with its props, or the refusal shown in a frame on a site the key does not allow. */
type View = { kind: 'flow'; props: FlowPageProps; title: string } | { kind: 'refused'; cssVariables: Record<string, string> };

/**
 * The hosted flow page `/f/{embedKey}` and the widget's frame `/embed/frame?k=…&t=flow`, rendered here rather than
 * by Next.js (docs/decisions/flows.md, "The patient pages' weight"): the same components and the same HTML, with
 * one small script that hydrates them, so a phone downloads React and the flow and nothing of a framework. The
 * custom server calls it for a view of a key that serves a published flow (the render cache keeps what it writes);
 * false when the flow turns out not to be served (Next.js then answers the 404 page it always has).
 */
export function createFlowPages(services: Services, assets: PatientPageAssets) {
  async function viewOf(req: IncomingMessage, url: URL, addressedKey: string, clientIp: string): Promise<View | null> {
    const frame = url.pathname === FRAME_PATH;
    const embedKey = frame ? paramOf(addressedKey, EMBED_KEY_SHAPE) : addressedKey || null;
    if (!embedKey || (frame && !['flow', null].includes(url.searchParams.get('t')))) return null;
    const caller = publicCallerOf(services, clientIp);
    let initial: PublicFlow;
    try {
      initial = await caller.publicFlows.getPublicFlow({ embedKey });
    } catch (err) {
      if (statusOf(err) === 404 || statusOf(err) === 400) return null;
      throw err;
    }
    if (!frame) {
      const campaign = campaignOf(url.searchParams.get('cid')) ?? campaignOf(url.searchParams.get('utm_campaign'));
      return { kind: 'flow', props: { embedKey, initial, campaign }, title: hostedPageTitle(initial) };
    }
    const parentOrigin = header(req.headers[EMBED_PARENT_HEADER]) ?? null;
    if (header(req.headers['sec-fetch-dest']) === 'iframe' && !parentOrigin) return { kind: 'refused', cssVariables: initial.theme.cssVariables };
    const embed = { parentOrigin, shop: paramOf(url.searchParams.get('shop')), compact: url.searchParams.get('theme') === 'compact' };
    return { kind: 'flow', props: { embedKey, initial, campaign: campaignOf(url.searchParams.get('cid')), embed }, title: 'Fulfillment Rail' };
  }

  /** Writes the page for this request (its CSP nonce on the one script); false when no flow is served there. */
  return async function render(req: IncomingMessage, res: ServerResponse, { embedKey, nonce }: { embedKey: string; nonce: string }, clientIp: string): Promise<boolean> {
    const url = new URL(req.url ?? '/', 'http://page.invalid');
    const view = await viewOf(req, url, embedKey, clientIp);
    if (!view) return false;
    const html = view.kind === 'refused' ? refusedDocument(assets, view.cssVariables) : flowDocument(assets, view.props, view.title, nonce);
    res.statusCode = 200;
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    // Cache-Control (no-store) is the app's; the render cache compresses what it replays, per Accept-Encoding.
    res.setHeader('Vary', 'Accept-Encoding');
    res.end(html);
    return true;
  };
}

function flowDocument(assets: PatientPageAssets, props: FlowPageProps, title: string, nonce: string): string {
  return patientDocument(assets, { title, referrer: 'same-origin', body: renderToString(<FlowRunner {...props} />), script: { path: assets.scripts.flow, nonce, props } });
}

/** Nothing runs in a refused frame: no script at all. */
function refusedDocument(assets: PatientPageAssets, cssVariables: Record<string, string>): string {
  return patientDocument(assets, { title: 'Fulfillment Rail', referrer: 'same-origin', body: renderToString(<EmbedRefused cssVariables={cssVariables} />) });
}
