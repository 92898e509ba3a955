import type { Db } from '@/server/db/types';
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
} from './simulated';
import { BILLING_PAGE, checkoutPage, messagePage, portalPage } from './simulated-pages';

/** What a simulated payment page answers: a page with its status, or a redirect (303) back to the console. */
export type PageAnswer = { status: number; html: string } | { status: 303; location: string };

/** The page a request names: `/billing/simulated/{kind}/{id}`. */
export interface PageRef {
  kind: SessionKind;
  id: string;
}

const MISSING = 'This billing link is unknown or has expired. Start again from the Billing page.';
const REFUSALS: Record<Extract<ActionOutcome, { state: 'refused' }>['reason'], [string, string]> = {
  nothing_due: ['Nothing is due', 'Nothing is due on this account: there is no overdue invoice to pay.'],
  no_subscription: ['No subscription', 'This account has no active subscription to change. Check out a plan from the Billing page.'],
  plan_already_active: ['Plan already active', 'This plan is already active on the account. Nothing was charged.'],
};

const page = (status: number, html: string): PageAnswer => ({ status, html });
export const missingPage = () => page(404, messagePage('Not found', MISSING));
const postPath = (kind: SessionKind, id: string) => `/billing/simulated/${kind}/${id}`;

export const refusedPage = (why: string) => page(403, messagePage('Refused', why));
export const tooLargePage = () => page(413, messagePage('Too large', 'The form was too large. Nothing changed.'));

/** GET: the checkout or portal of a session still open (DESIGN decision 29). */
export async function showSimulatedPage(db: Db, { kind, id }: PageRef): Promise<PageAnswer> {
  const found = await readSimulatedSession(db, kind, id);
  if (found.state === 'missing') return missingPage();
  if (found.state === 'used') return page(404, messagePage('Already used', `This checkout was already ${found.session.status}. Start a new one from the Billing page.`));
  return page(200, kind === 'checkout' ? checkoutPage(found, postPath(kind, id)) : portalPage(found, postPath(kind, id)));
}

/**
 * POST: the form's `action`, once the transport has checked the origin. The session id is the page's bearer
 * secret, so the form must carry it as its token too. Done, the browser goes back to the console's Billing page.
 */
export async function actOnSimulatedPage(db: Db, { kind, id }: PageRef, form: { token: string | null; action: string }): Promise<PageAnswer> {
  if (form.token !== id) return refusedPage('This form does not belong to this page. Nothing changed.');
  let outcome: ActionOutcome;
  if (kind === 'checkout') {
    if (!(CHECKOUT_ACTIONS as readonly string[]).includes(form.action)) return page(400, messagePage('Unknown action', 'Choose one of the checkout’s buttons. Nothing changed.'));
    outcome = await actOnCheckout(db, id, form.action as CheckoutAction);
  } else {
    if (!(PORTAL_ACTIONS as readonly string[]).includes(form.action)) return page(400, messagePage('Unknown action', 'Choose one of the portal’s buttons. Nothing changed.'));
    outcome = await actOnPortal(db, id, form.action as PortalAction);
  }
  switch (outcome.state) {
    case 'missing':
      return missingPage();
    case 'used':
      return page(409, messagePage('Already used', `This checkout was already used (${outcome.session.status}). Nothing changed.`));
    case 'refused': {
      const [heading, text] = REFUSALS[outcome.reason];
      return page(409, messagePage(heading, text, kind === 'portal' ? { href: postPath(kind, id), label: 'Back to the portal' } : undefined));
    }
    case 'done':
      return { status: 303, location: `${BILLING_PAGE}?${kind === 'checkout' ? `checkout=${outcome.result}` : `portal=${outcome.result}`}` };
  }
}
