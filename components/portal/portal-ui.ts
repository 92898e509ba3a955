/** The portal's few shared styles: the flows' look (components/flows/), in the clinic's theme variables. */

export const control =
  'mt-2 block w-full rounded-[var(--nl-flow-radius,0.375rem)] border bg-white px-3 py-2 text-base text-slate-900 shadow-sm focus:border-indigo-600 focus:ring-2 focus:ring-indigo-600 focus:outline-none';

export const card = 'rounded-[var(--nl-flow-radius,0.5rem)] border border-slate-200 bg-[var(--nl-flow-surface,#fff)] p-4 shadow-sm';

export const textLink = 'font-medium text-indigo-700 underline hover:text-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700';

export const sectionTitle = 'text-lg font-semibold text-[var(--nl-flow-text,#0f172a)]';

const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });

/** A day as patients read it ("Nov 29, 2026"), in UTC so the server's page and the browser's agree. */
export const formatDay = (iso: string | null) => (iso ? DATE.format(new Date(iso.length === 10 ? `${iso}T12:00:00Z` : iso)) : '');

/** The portal's address for an embed key (the server's portal-link.ts says the same for e-mails). */
export const portalPath = (embedKey: string) => `/p/${encodeURIComponent(embedKey)}`;
