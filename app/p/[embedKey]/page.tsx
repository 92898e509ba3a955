import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PortalPage } from '@/components/portal/portal-page';
import { portalDocument, portalMetadata } from './portal-document';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ embedKey: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  return portalMetadata((await portalDocument((await params).embedKey, 'home'))?.title);
}

/** The patient portal of an embed key (DESIGN decisions 39, 40): sign-in, or the signed-in patient's orders. */
export default async function PatientPortalPage({ params }: Params) {
  const doc = await portalDocument((await params).embedKey, 'home');
  if (!doc) notFound();
  return <PortalPage {...doc.props} />;
}
