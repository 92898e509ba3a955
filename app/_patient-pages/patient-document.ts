import { escapeHtml } from '@/server/lib/html';
import { PROPS_ID, ROOT_ID } from './page-root';
import type { PatientPageAssets } from './patient-assets';

export interface PatientDocumentParts {
  title: string;
  /** The page's own referrer policy: `same-origin` for the flows, `no-referrer` for the portal's pages, which hold PHI. */
  referrer: 'same-origin' | 'no-referrer';
  /** The server-rendered markup React hydrates (or, with no script, the whole page). */
  body: string;
  /** The hydrating script's address, its CSP nonce and the props it hydrates with; none for a page that runs nothing. */
  script?: { path: string; nonce: string; props: unknown };
}

/**
 * The HTML document of a page the custom server renders (app/_patient-pages/): the inlined stylesheet, the one
 * module script with this response's nonce, and the props as JSON, `<` escaped so no value can close the element.
 */
export function patientDocument(assets: PatientPageAssets, { title, referrer, body, script }: PatientDocumentParts): string {
  const scriptTag = script ? `<script type="module" src="${script.path}" nonce="${escapeHtml(script.nonce)}"></script>` : '';
  const props = script ? `<script type="application/json" id="${PROPS_ID}">${JSON.stringify(script.props).replace(/</g, '\\u003c')}</script>` : '';
  return (
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(title)}</title><meta name="robots" content="noindex, nofollow"><meta name="referrer" content="${referrer}">` +
    `<link rel="icon" href="/icon.svg" type="image/svg+xml">${scriptTag}<style>${assets.stylesheet}</style></head>` +
    `<body class="min-h-screen bg-slate-50 text-slate-900 antialiased"><div id="${ROOT_ID}">${body}</div>${props}</body></html>`
  );
}
