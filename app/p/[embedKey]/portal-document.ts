import type { Metadata } from 'next';
import { cache } from 'react';
import { portalDocumentOf, type PortalRoute } from '@/app/_patient-pages/portal-view';
import { portalReadsOfRequest } from '@/web/portal/load-portal';

/**
 * What a portal page shows, read once per request for the page and its metadata. In production the custom server
 * renders the portal's pages (app/_patient-pages/); Next.js renders them in development and answers their 404s.
 */
export const portalDocument = cache(async (embedKey: string, page: PortalRoute['page'], arg = '') => {
  const route: PortalRoute = page === 'order' ? { page, orderId: arg } : page === 'link' ? { page, token: arg } : { page: 'home' };
  return portalDocumentOf(await portalReadsOfRequest(), embedKey, route);
});

export const portalMetadata = (title: string | undefined): Metadata => ({ title: title ?? 'Patient portal', robots: { index: false, follow: false }, referrer: 'no-referrer' });
