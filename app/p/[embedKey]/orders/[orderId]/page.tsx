import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PortalPage } from '@/components/portal/portal-page';
import { portalDocument, portalMetadata } from '../../portal-document';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ embedKey: string; orderId: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { embedKey, orderId } = await params;
  return portalMetadata((await portalDocument(embedKey, 'order', orderId))?.title);
}

/** One of the signed-in patient's orders; anyone else's is this page's 404, and a signed-out visitor signs in first. */
export default async function PortalOrderPage({ params }: Params) {
  const { embedKey, orderId } = await params;
  const doc = await portalDocument(embedKey, 'order', orderId);
  if (!doc) notFound();
  return <PortalPage {...doc.props} />;
}
