import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '@/server/lib/errors';
import { originOf } from '@/server/domain/embed/origins';
import { patientCookie, patientTokenOf } from '@/server/lib/portal-cookie';
import { readJsonBody } from './body';

/** One portal action's request, as the app hands it to the port (app/_patient-pages/portal-actions.ts runs it). */
export interface PortalActionCall {
  embedKey: string;
  input: Record<string, unknown>;
  clientIp: string;
  token: string | undefined;
}

/**
 * The port of the patient portal's writes (DESIGN decisions 39, 40): sign-in, sign-out, shipping, notices. `act`
 * answers null for a name that is no action; `session` is the token to keep in the cookie, or null to forget it.
 */
export interface PortalActions {
  act(name: string, call: PortalActionCall): Promise<{ body: object; session?: string | null }> | null;
}

// `/p/{embedKey}/actions/{name}`: under the portal's path, so the browser sends the portal's cookie with it.
const ACTION_PATH = /^\/p\/([^/]+)\/actions\/([^/]+)$/;
export const isPortalActionPath = (pathname: string) => ACTION_PATH.test(pathname);

/**
 * A portal page's write: a same-origin JSON POST from the portal's own script (components/portal/portal-actions.ts).
 * The cookie is SameSite=Strict; on top of it the request must say it comes from this service's own origin (the
 * `Origin` a browser always sends with a POST), so no other site's page can make a patient's browser act. The
 * answer is `{ ok: true, … }` with the session cookie set or cleared, or the spec's error envelope (thrown).
 */
export async function servePortalAction(
  req: IncomingMessage,
  res: ServerResponse,
  actions: PortalActions,
  pathname: string,
  ctx: { clientIp: string; https: boolean; publicUrl: string; maxBodyBytes: number },
): Promise<void> {
  const [, rawKey, name] = ACTION_PATH.exec(pathname)!;
  if (!sameOrigin(req, ctx.publicUrl)) {
    throw new AppError('permission_error', 'cross_origin_request', 403, "The patient portal's actions are taken only from the portal's own pages.");
  }
  const { json } = await readJsonBody(req, ctx.maxBodyBytes);
  const embedKey = decodeURIComponent(rawKey!);
  const work = actions.act(name!, { embedKey, input: json as Record<string, unknown>, clientIp: ctx.clientIp, token: patientTokenOf(req.headers.cookie) });
  if (!work) throw new AppError('not_found', 'route_not_found', 404, 'Unrecognized request URL.');
  const { body, session } = await work;
  const secure = ctx.https || ctx.publicUrl.startsWith('https://');
  if (session !== undefined) res.setHeader('Set-Cookie', patientCookie(embedKey, session, secure));
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify({ ok: true, ...body }));
}

/** Whether the POST's `Origin` is this service: the address it was reached at (its Host) or its public URL. */
function sameOrigin(req: IncomingMessage, publicUrl: string): boolean {
  const origin = originOf(req.headers.origin);
  if (!origin) return false;
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  return origin === originOf(publicUrl) || new URL(origin).host === req.headers.host;
}
