import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PortalHome } from '@/components/portal/portal-home';
import { PortalShell } from '@/components/portal/portal-shell';
import { PortalSignIn } from '@/components/portal/sign-in';
import { SignOutButton } from '@/components/portal/sign-out-button';
import { loadPatientHome, loadPortal } from '@/web/portal/load-portal';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ embedKey: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const info = await loadPortal((await params).embedKey);
  return { title: info ? `${info.clinicName} · Patient portal` : 'Patient portal', robots: { index: false, follow: false }, referrer: 'no-referrer' };
}

/** The patient portal of an embed key (DESIGN decisions 39, 40): sign-in, or the signed-in patient's orders. */
export default async function PatientPortalPage({ params }: Params) {
  const { embedKey } = await params;
  const info = await loadPortal(embedKey);
  if (!info) notFound();
  const home = await loadPatientHome();
  if (!home) {
    return (
      <PortalShell info={info} title="Sign in to see your orders">
        <PortalSignIn embedKey={embedKey} />
      </PortalShell>
    );
  }
  return (
    <PortalShell info={info} title={`Hello, ${home.profile.firstName}`} actions={<SignOutButton embedKey={embedKey} />}>
      <PortalHome embedKey={embedKey} {...home} />
    </PortalShell>
  );
}
