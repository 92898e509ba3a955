import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderToString } from 'react-dom/server';
import { PortalGone } from '@/components/portal/portal-gone';
import { PortalPage } from '@/components/portal/portal-page';
import type { Services } from '@/server/api/context';
import { patientTokenOf } from '@/server/lib/portal-cookie';
import { portalReads } from '@/web/portal/portal-reads';
import { publicCallerOf } from '@/web/trpc/public-caller';
import type { PatientPageAssets } from './patient-assets';
import { patientDocument } from './patient-document';
import { portalDocumentOf, portalRouteOf } from './portal-view';

/**
 * The patient portal's pages `/p/{embedKey}`, `/p/{embedKey}/sign-in` and `/p/{embedKey}/orders/{id}` (DESIGN
 * decisions 39, 40), rendered here rather than by Next.js, as the flow's page is (docs/decisions/flows.md, "The
 * patient pages' weight"): the same components, hydrated by one small script. The session is the HttpOnly
 * cookie; every read goes through the patient endpoints as the signed-in patient. A page that shows nothing (an
 * unknown key, an order that is not this patient's) is the same 404 page whatever the reason, with no script.
 * Never cached anywhere: the app's headers say no-store for every portal page.
 */
export function createPortalPages(services: Services, assets: PatientPageAssets) {
  return async function renderPortal(req: IncomingMessage, res: ServerResponse, nonce: string, clientIp: string): Promise<boolean> {
    const url = new URL(req.url ?? '/', 'http://page.invalid');
    const target = req.method === 'GET' ? portalRouteOf(url) : null;
    if (!target) return false;
    const reads = portalReads((bearer) => publicCallerOf(services, clientIp, bearer), patientTokenOf(req.headers.cookie));
    const doc = await portalDocumentOf(reads, target.embedKey, target.route);
    res.setHeader('Content-Type', 'text/html; charset=utf-8');
    if (!doc) {
      res.statusCode = 404;
      res.end(patientDocument(assets, { title: 'Page not available', referrer: 'no-referrer', body: renderToString(<PortalGone />) }));
      return true;
    }
    res.statusCode = 200;
    res.end(patientDocument(assets, { title: doc.title, referrer: 'no-referrer', body: renderToString(<PortalPage {...doc.props} />), script: { path: assets.scripts.portal, nonce, props: doc.props } }));
    return true;
  };
}
