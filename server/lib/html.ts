import { createHash } from 'node:crypto';

/*
 * The few pages the server writes itself, without React (the simulated payment pages, the embed demo, the
 * unsubscribe page), share these two.
 */

/** Text for HTML, in element content or a quoted attribute: the five characters that could open markup, as references. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The CSP source that admits exactly this inline stylesheet and nothing else. */
export const styleHashSource = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;
