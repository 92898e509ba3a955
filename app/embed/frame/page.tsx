import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { EmbedRefused } from '@/components/flows/embed-refused';
import { FlowRunner } from '@/components/flows/flow-runner';
import { PublicIntakeFrame } from '@/components/flows/public-intake-frame';
import { loadPublicFlow } from '@/web/trpc/public-flows';
import { publicCaller, statusOf } from '@/web/trpc/public-server';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Fulfillment Rail', robots: { index: false, follow: false }, referrer: 'same-origin' };

// Set by the custom server (server/http/framed-pages.ts) only when the framing page's origin is one the key allows.
const EMBED_PARENT_HEADER = 'x-fr-embed-parent';

type Query = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined, shape = /^[\w.:/-]{1,200}$/) => (typeof v === 'string' && shape.test(v) ? v : null);

/**
 * The widget's iframe (`/embed/frame?k=&q=&t=&theme=&shop=&cid=`): a flow (t=flow) or a questionnaire of public
 * intake (t=intake, q its key). Framed by a page the key does not allow, it starts nothing.
 */
export default async function EmbedFrame({ searchParams }: { searchParams: Promise<Query> }) {
  const query = await searchParams;
  const h = await headers();
  const parentOrigin = h.get(EMBED_PARENT_HEADER);
  const framed = h.get('sec-fetch-dest') === 'iframe';
  const embedKey = one(query.k, /^emb_[0-9A-Za-z]{24}$/);
  const compact = query.theme === 'compact';
  if (!embedKey) notFound();

  if (query.t === 'intake') {
    const key = one(query.q, /^[\w.-]{1,64}$/);
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
  return <FlowRunner embedKey={embedKey} initial={definition} campaign={one(query.cid, /^[\w.-]{1,64}$/)} embed={{ parentOrigin, shop: one(query.shop), compact }} />;
}
