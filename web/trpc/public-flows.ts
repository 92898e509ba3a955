import 'server-only';
import { cache } from 'react';
import { publicCaller, statusOf } from './public-server';

/**
 * The published definition behind an embed key, for the server render of `/f/{embedKey}` and `/embed/frame`:
 * the same procedure, limits and errors as `GET /v1/public/flows/{embedKey}`. Null when the key is unknown,
 * revoked or serves no published flow (the page is a 404). Once per request (the page and its metadata share it).
 * Its type is the procedure's output, inferred from the caller (components/flows/types.ts calls it PublicFlow).
 */
export const loadPublicFlow = cache(async (embedKey: string) => {
  const caller = await publicCaller();
  try {
    return await caller.publicFlows.getPublicFlow({ embedKey });
  } catch (err) {
    if (statusOf(err) === 404 || statusOf(err) === 400) return null;
    throw err;
  }
});
