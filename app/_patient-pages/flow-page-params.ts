import type { PublicFlow } from '@/components/flows/types';

/*
 * What the flow's pages read from a request, one rule for both renderers of them: the custom server's
 * (render-flow-page.tsx) and Next.js's (app/f/[embedKey]/page.tsx, app/embed/frame/page.tsx, used in development).
 */

/** A query parameter the page reads, or null when absent, repeated or not of its shape. */
export const paramOf = (v: string | string[] | null | undefined, shape = /^[\w.:/-]{1,200}$/) => (typeof v === 'string' && shape.test(v) ? v : null);
export const campaignOf = (v: string | string[] | null | undefined) => paramOf(v, /^[\w.-]{1,64}$/);

/** The hosted page's title: the landing headline; the page is for patients, never for search engines. */
export function hostedPageTitle(definition: PublicFlow | null): string {
  const landing = definition?.steps.find((s) => s.kind === 'landing');
  return landing?.kind === 'landing' ? landing.blocks.headline : 'Check if treatment is right for you';
}
