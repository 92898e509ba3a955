/*
 * How the embed pages are addressed, in one place for the three layers that read them: the embed area's rules
 * (server/domain/embed/), the custom server (server/http/framed-pages.ts) and the flow's pages (app/_patient-pages/,
 * and Next.js's app/embed/frame/page.tsx in development). Here, with no area, because all three may import server/lib.
 */

/** `emb_` + 24 base62 characters: the shape every real embed key has, checked before any lookup. */
export const EMBED_KEY_SHAPE = /^emb_[0-9A-Za-z]{24}$/;

/** The widget's iframe: `/embed/frame?k=…&t=…`. */
export const FRAME_PATH = '/embed/frame';

/**
 * Set on the request by the custom server for `/embed/frame` when the page that frames it (the Referer's origin,
 * which the widget sends with `referrerpolicy=origin`) is one the key allows: the frame posts its messages to
 * that origin only. Whatever a client sends under this name is dropped first.
 */
export const EMBED_PARENT_HEADER = 'x-fr-embed-parent';
