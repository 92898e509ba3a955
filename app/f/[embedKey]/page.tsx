import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { campaignOf, hostedPageTitle } from '@/app/_patient-pages/flow-page-params';
import { FlowRunner } from '@/components/flows/flow-runner';
import { loadPublicFlow } from '@/web/trpc/public-flows';

export const dynamic = 'force-dynamic';

/** The landing headline as the tab's title; the page is for patients, never for search engines. */
export async function generateMetadata({ params }: { params: Promise<{ embedKey: string }> }): Promise<Metadata> {
  const definition = await loadPublicFlow((await params).embedKey);
  return { title: hostedPageTitle(definition), robots: { index: false, follow: false }, referrer: 'same-origin' };
}

/** A flow's hosted page (DESIGN decision 25): an unknown, revoked or unpublished key is a 404. */
export default async function HostedFlowPage({ params, searchParams }: { params: Promise<{ embedKey: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const [{ embedKey }, query] = await Promise.all([params, searchParams]);
  const definition = await loadPublicFlow(embedKey);
  if (!definition) notFound();
  return <FlowRunner embedKey={embedKey} initial={definition} campaign={campaignOf(query.cid) ?? campaignOf(query.utm_campaign)} />;
}
