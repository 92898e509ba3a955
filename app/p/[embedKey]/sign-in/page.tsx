import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { PortalPage } from '@/components/portal/portal-page';
import { portalDocument, portalMetadata } from '../portal-document';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ embedKey: string }>; searchParams: Promise<{ t?: string | string[] }> };
const tokenOf = async (searchParams: Params['searchParams']) => {
  const { t } = await searchParams;
  return typeof t === 'string' ? t : '';
};

export async function generateMetadata({ params, searchParams }: Params): Promise<Metadata> {
  return portalMetadata((await portalDocument((await params).embedKey, 'link', await tokenOf(searchParams)))?.title);
}

/** Where the sign-in mail's one-click link lands (`?t=<challenge>.<code>`); the exchange runs in the browser. */
export default async function PortalLinkSignInPage({ params, searchParams }: Params) {
  const doc = await portalDocument((await params).embedKey, 'link', await tokenOf(searchParams));
  if (!doc) notFound();
  return <PortalPage {...doc.props} />;
}
