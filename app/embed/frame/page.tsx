import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { campaignOf, paramOf } from '@/app/_patient-pages/flow-page-params';
import { EMBED_KEY_SHAPE, EMBED_PARENT_HEADER } from '@/server/lib/embed-addresses';
import { EmbedRefused } from '@/components/flows/embed-refused';
import { FlowRunner } from '@/components/flows/flow-runner';
import { PublicIntakeFrame } from '@/components/flows/public-intake-frame';
import { loadPublicFlow } from '@/web/trpc/public-flows';
import { publicCaller, statusOf } from '@/web/trpc/public-server';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Fulfillment Rail', robots: { index: false, follow: false }, referrer: 'same-origin' };

type Query = Record<string, string | string[] | undefined>;

/**
 * The widget's iframe (`/embed/frame?k=&q=&t=&theme=&shop=&cid=`): a flow (t=flow) or a questionnaire of public
 * intake (t=intake, q its key). Framed by a page the key does not allow, it starts nothing.
 */
export default async function EmbedFrame({ searchParams }: { searchParams: Promise<Query> }) {
  const query = await searchParams;
  const h = await headers();
  const parentOrigin = h.get(EMBED_PARENT_HEADER);
  const framed = h.get('sec-fetch-dest') === 'iframe';
  const embedKey = paramOf(query.k, EMBED_KEY_SHAPE);
  const compact = query.theme === 'compact';
  if (!embedKey) notFound();

  if (query.t === 'intake') {
    const key = paramOf(query.q, /^[\w.-]{1,64}$/);
    if (!key) notFound();
    const caller = await publicCaller();
    const [served, embed] = await Promise.all([
      caller.intake.getPublicQuestionnaire({ embedKey, key }).catch((err: unknown) => {
        if (statusOf(err) === 404 || statusOf(err) === 400) notFound();
        throw err;
      }),
      caller.publicEmbed.getPublicEmbed({ embedKey }),
    ]);
    if (framed && !parentOrigin) return <EmbedRefused cssVariables={{}} />;
    return <PublicIntakeFrame embedKey={embedKey} questionnaire={served.questionnaire} sandbox={!embed.livemode} parentOrigin={parentOrigin} compact={compact} />;
  }
  if (query.t !== undefined && query.t !== 'flow') notFound();

  const definition = await loadPublicFlow(embedKey);
  if (!definition) notFound();
  if (framed && !parentOrigin) return <EmbedRefused cssVariables={definition.theme.cssVariables} />;
  return <FlowRunner embedKey={embedKey} initial={definition} campaign={campaignOf(query.cid)} embed={{ parentOrigin, shop: paramOf(query.shop), compact }} />;
}
