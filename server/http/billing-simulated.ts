import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '@/server/api/context';
import {
  actOnCheckout,
  actOnPortal,
  CHECKOUT_ACTIONS,
  PORTAL_ACTIONS,
  readSimulatedSession,
  type ActionOutcome,
  type CheckoutAction,
  type PortalAction,
  type SessionKind,
} from '@/server/domain/billing/simulated';
import { AppError } from '@/server/lib/errors';
import { BILLING_PAGE, checkoutPage, messagePage, portalPage, SIMULATED_PAGE_CSP } from './billing-simulated-pages';

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

const MISSING = 'This billing link is unknown or has expired. Start again from the Billing page.';
const REFUSALS: Record<Extract<ActionOutcome, { state: 'refused' }>['reason'], [string, string]> = {
  nothing_due: ['Nothing is due', 'Nothing is due on this account: there is no overdue invoice to pay.'],
  no_subscription: ['No subscription', 'This account has no active subscription to change. Check out a plan from the Billing page.'],
  plan_already_active: ['Plan already active', 'This plan is already active on the account. Nothing was charged.'],
};

export async function serveBillingSimulated(req: IncomingMessage, res: ServerResponse, url: URL, services: Services): Promise<void> {
  res.setHeader('Content-Security-Policy', SIMULATED_PAGE_CSP);
  res.setHeader('Cache-Control', 'no-store');
  // The address is a bearer secret: never hand it to another site as a Referer. Not `no-referrer`: under it a
  // browser sends `Origin: null` with the page's own form posts, which the same-origin check must refuse.
  res.setHeader('Referrer-Policy', 'same-origin');
  const m = PAGE_PATH.exec(url.pathname);
  const kind = m?.[1] as SessionKind | undefined;
  const id = m ? safeDecode(m[2]) : '';
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') {
    throw new AppError('validation_error', 'method_not_allowed', 405, `${method} is not allowed on ${SIMULATED_PREFIX}….`, undefined, { Allow: 'GET, HEAD, POST' });
  }
  if (!kind || !id) return send(res, 404, messagePage('Not found', MISSING));
  const postPath = `${SIMULATED_PREFIX}${kind}/${id}`;
  const db = services.database.db;

  if (method !== 'POST') {
    const found = await readSimulatedSession(db, kind, id);
    if (found.state === 'missing') return send(res, 404, messagePage('Not found', MISSING));
    if (found.state === 'used') return send(res, 404, messagePage('Already used', `This checkout was already ${found.session.status}. Start a new one from the Billing page.`));
    return send(res, 200, kind === 'checkout' ? checkoutPage(found, postPath) : portalPage(found, postPath));
  }

  if (!sameOrigin(req, services.auth.publicUrl)) return send(res, 403, messagePage('Refused', 'This form was sent from another site. Nothing changed.'));
  const form = await readForm(req);
  if (!form) return send(res, 413, messagePage('Too large', 'The form was too large. Nothing changed.'));
  if (form.get('token') !== id) return send(res, 403, messagePage('Refused', 'This form does not belong to this page. Nothing changed.'));
  const action = form.get('action') ?? '';
  let outcome: ActionOutcome;
  if (kind === 'checkout') {
    if (!(CHECKOUT_ACTIONS as readonly string[]).includes(action)) return send(res, 400, messagePage('Unknown action', 'Choose one of the checkout’s buttons. Nothing changed.'));
    outcome = await actOnCheckout(db, id, action as CheckoutAction);
  } else {
    if (!(PORTAL_ACTIONS as readonly string[]).includes(action)) return send(res, 400, messagePage('Unknown action', 'Choose one of the portal’s buttons. Nothing changed.'));
    outcome = await actOnPortal(db, id, action as PortalAction);
  }

  switch (outcome.state) {
    case 'missing':
      return send(res, 404, messagePage('Not found', MISSING));
    case 'used':
      return send(res, 409, messagePage('Already used', `This checkout was already used (${outcome.session.status}). Nothing changed.`));
    case 'refused': {
      const [heading, text] = REFUSALS[outcome.reason];
      return send(res, 409, messagePage(heading, text, kind === 'portal' ? { href: postPath, label: 'Back to the portal' } : undefined));
    }
    case 'done': {
      const query = kind === 'checkout' ? `checkout=${outcome.result}` : `portal=${outcome.result}`;
      res.statusCode = 303;
      res.setHeader('Location', `${BILLING_PAGE}?${query}`);
      res.end();
      return;
    }
  }
}

function send(res: ServerResponse, status: number, html: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.end(html);
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
