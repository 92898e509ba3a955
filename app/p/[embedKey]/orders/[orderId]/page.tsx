import { notFound } from 'next/navigation';
import { medicationLine } from '@/components/portal/portal-home';
import { OrderView } from '@/components/portal/order-view';
import { PortalShell } from '@/components/portal/portal-shell';
import { PortalSignIn } from '@/components/portal/sign-in';
import { SignOutButton } from '@/components/portal/sign-out-button';
import { loadPatientOrder, loadPatientProfile, loadPortal } from '@/web/portal/load-portal';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Your order · Patient portal', robots: { index: false, follow: false }, referrer: 'no-referrer' };

/** One of the signed-in patient's orders; anyone else's is this page's 404, and a signed-out visitor signs in first. */
export default async function PortalOrderPage({ params }: { params: Promise<{ embedKey: string; orderId: string }> }) {
  const { embedKey, orderId } = await params;
  const info = await loadPortal(embedKey);
  if (!info) notFound();
  const order = await loadPatientOrder(orderId);
  if (order === 'missing') notFound();
  if (!order) {
    return (
      <PortalShell info={info} title="Sign in to see your order">
        <PortalSignIn embedKey={embedKey} />
      </PortalShell>
    );
  }
  const profile = await loadPatientProfile();
  return (
    <PortalShell info={info} title={medicationLine(order) || 'Your order'} actions={<SignOutButton embedKey={embedKey} />}>
      <OrderView embedKey={embedKey} order={order} phone={profile?.phone ?? null} />
    </PortalShell>
  );
}
