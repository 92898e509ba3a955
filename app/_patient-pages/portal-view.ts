import type { PortalPageProps } from '@/components/portal/portal-page';
import type { portalReads } from '@/web/portal/portal-reads';

/** Which portal page an address names: `/p/{key}`, `/p/{key}/sign-in?t=…` (the mail's link) or `/p/{key}/orders/{id}`. */
export type PortalRoute = { page: 'home' } | { page: 'link'; token: string } | { page: 'order'; orderId: string };

export interface PortalDocument {
  props: PortalPageProps;
  title: string;
}

const PORTAL_PATH = /^\/p\/([^/]+)(?:(\/sign-in)|\/orders\/([^/]+))?\/?$/;

/** The embed key and page of a portal address; null for any other path under /p/ (Next.js's 404). */
export function portalRouteOf(url: URL): { embedKey: string; route: PortalRoute } | null {
  const m = PORTAL_PATH.exec(url.pathname);
  if (!m) return null;
  try {
    const embedKey = decodeURIComponent(m[1]);
    if (m[2]) return { embedKey, route: { page: 'link', token: url.searchParams.get('t') ?? '' } };
    if (m[3] !== undefined) return { embedKey, route: { page: 'order', orderId: decodeURIComponent(m[3]) } };
    return { embedKey, route: { page: 'home' } };
  } catch {
    return null;
  }
}

/**
 * What a portal page shows (DESIGN decisions 39, 40), from the patient's own reads: null when the page is a 404
 * (an unknown or revoked key, or an order that is not this patient's). A signed-out visitor is asked to sign in
 * on any page but the mail link's, which signs in by itself once it runs in the browser.
 */
export async function portalDocumentOf(reads: ReturnType<typeof portalReads>, embedKey: string, route: PortalRoute): Promise<PortalDocument | null> {
  const info = await reads.portal(embedKey);
  if (!info) return null;
  const home = `${info.clinicName} · Patient portal`;
  if (route.page === 'link') return { props: { embedKey, info, view: { kind: 'link', token: route.token } }, title: 'Signing in · Patient portal' };
  if (route.page === 'home') {
    const signedIn = await reads.home();
    return { props: { embedKey, info, view: signedIn ? { kind: 'home', home: signedIn } : { kind: 'sign-in', title: 'Sign in to see your orders' } }, title: home };
  }
  const order = await reads.order(route.orderId);
  if (order === 'missing') return null;
  const title = 'Your order · Patient portal';
  if (!order) return { props: { embedKey, info, view: { kind: 'sign-in', title: 'Sign in to see your order' } }, title };
  const profile = await reads.profile();
  return { props: { embedKey, info, view: { kind: 'order', order, phone: profile?.phone ?? null } }, title };
}
