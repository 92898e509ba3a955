import { PortalGone } from '@/components/portal/portal-gone';

export const metadata = { title: 'Page not available', robots: { index: false, follow: false } };

export default PortalGone;
