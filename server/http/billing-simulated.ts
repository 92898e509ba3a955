import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '@/server/api/context';
import { actOnSimulatedPage, missingPage, refusedPage, showSimulatedPage, tooLargePage, type PageAnswer } from '@/server/domain/billing/simulated-page-answers';
import { SIMULATED_PAGE_CSP } from '@/server/domain/billing/simulated-pages';
import type { SessionKind } from '@/server/domain/billing/simulated';
import { AppError } from '@/server/lib/errors';
import type { RequestTarget } from './request-target';

/**
 * `/billing/simulated/{checkout|portal}/{bss_id}`: the simulated payment provider's pages (DESIGN decision 29).
 * GET shows the session, POST performs the form's `action` and answers 303 to the console's Billing page.
 * The session id is the page's bearer secret; a POST must also carry it as the form's token and come from
 * this service's own pages (no foreign Origin), so another site cannot make a signed-in owner's browser pay.
 */
export const SIMULATED_PREFIX = '/billing/simulated/';
const PAGE_PATH = /^\/billing\/simulated\/(checkout|portal)\/([^/]+)\/?$/;
const MAX_FORM_BYTES = 4096;

export const isBillingSimulatedPath = (pathname: string) => pathname.startsWith(SIMULATED_PREFIX);

export async function serveBillingSimulated(req: IncomingMessage, res: ServerResponse, url: RequestTarget, services: Services): Promise<void> {
  res.setHeader('Content-Security-Policy', SIMULATED_PAGE_CSP);
  res.setHeader('Cache-Control', 'no-store');
  // The address is a bearer secret: never hand it to another site as a Referer. Not `no-referrer`: under it a
  // browser sends `Origin: null` with the page's own form posts, which the same-origin check must refuse.
  res.setHeader('Referrer-Policy', 'same-origin');
  const m = PAGE_PATH.exec(url.pathname);
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
    throw new AppError('validation_error', 'method_not_allowed', 405, `${method} is not allowed on ${SIMULATED_PREFIX}….`, undefined, { Allow: 'GET, HEAD, POST' });
  }
  const kind = m?.[1] as SessionKind | undefined;
  const id = m ? safeDecode(m[2]) : '';
  if (!kind || !id) return send(res, missingPage());
  const page = { kind, id };
  const db = services.database.db;
  if (method !== 'POST') return send(res, await showSimulatedPage(db, page));
  if (!sameOrigin(req, services.auth.publicUrl)) return send(res, refusedPage('This form was sent from another site. Nothing changed.'));
  const form = await readForm(req);
  if (!form) return send(res, tooLargePage());
  send(res, await actOnSimulatedPage(db, page, { token: form.get('token'), action: form.get('action') ?? '' }));
}

function send(res: ServerResponse, answer: PageAnswer): void {
  res.statusCode = answer.status;
  if ('location' in answer) {
    res.setHeader('Location', answer.location);
    res.end();
    return;
  }
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.end(answer.html);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return '';
  }
}

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * Same-origin posts only. Browsers send Origin on every form POST; a request without one (a script, curl)
 * has no cookie-borne authority here anyway, and still needs the session's token. Behind a proxy the Host may
 * be rewritten, so the console's public origin counts as ours too.
 */
function sameOrigin(req: IncomingMessage, publicUrl: string): boolean {
  const site = header(req.headers['sec-fetch-site']);
  if (site && site !== 'same-origin' && site !== 'none') return false;
  const origin = header(req.headers.origin);
  if (origin === undefined) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false; // 'null' (sandboxed or privacy-redirected documents) and garbage alike
  }
  if (parsed.host === header(req.headers.host)) return true;
  try {
    return parsed.origin === new URL(publicUrl).origin;
  } catch {
    return false;
  }
}

/** The urlencoded form, or null when it is larger than any of these pages' forms could be. */
async function readForm(req: IncomingMessage): Promise<URLSearchParams | null> {
  if (Number(req.headers['content-length'] ?? 0) > MAX_FORM_BYTES) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) return null;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
