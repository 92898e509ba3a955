import { notFound } from 'next/navigation';
import { LinkSignIn } from '@/components/portal/link-sign-in';
import { PortalShell } from '@/components/portal/portal-shell';
import { loadPortal } from '@/web/portal/load-portal';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Signing in · Patient portal', robots: { index: false, follow: false }, referrer: 'no-referrer' };

/** Where the sign-in mail's one-click link lands (`?t=<challenge>.<code>`); the exchange runs in the browser. */
export default async function PortalLinkSignInPage({ params, searchParams }: { params: Promise<{ embedKey: string }>; searchParams: Promise<{ t?: string | string[] }> }) {
  const [{ embedKey }, { t }] = await Promise.all([params, searchParams]);
  const info = await loadPortal(embedKey);
  if (!info) notFound();
  return (
    <PortalShell info={info} title="Signing you in">
      <LinkSignIn embedKey={embedKey} token={typeof t === 'string' ? t : ''} />
    </PortalShell>
  );
}
