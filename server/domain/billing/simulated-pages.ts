import type { SessionView } from '@/server/domain/billing/simulated';
import { checkoutChargeCents, findSimulatedCoupon, listPriceCents } from '@/server/domain/billing/simulated-catalog';
import { escapeHtml, styleHashSource } from '@/server/lib/html';

/**
 * The simulated payment provider's pages: plain HTML and forms, no script at all, one stylesheet allowed by
 * its hash. Everything interpolated goes through `escape`.
 */
const CSS = `body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#0f172a;background:#f8fafc}
.sim{margin:0;background:#fef3c7;color:#78350f;border-bottom:1px solid #f59e0b;padding:.75rem 1rem;font-weight:600;text-align:center}
main{max-width:32rem;margin:2rem auto;padding:1.5rem;background:#fff;border:1px solid #cbd5e1;border-radius:8px}
h1{margin:0 0 .25rem;font-size:1.375rem}.who{margin:0 0 1rem;color:#475569}
dl{display:grid;grid-template-columns:auto 1fr;gap:.375rem 1rem;margin:1rem 0}dt{color:#475569}dd{margin:0;font-weight:600}
form{margin:1rem 0 0}.actions{display:flex;flex-wrap:wrap;gap:.75rem}
button{font:inherit;padding:.625rem 1rem;border-radius:6px;border:1px solid #3730a3;background:#4338ca;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#3730a3}button:focus-visible,a:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.hint{color:#475569;font-size:.875rem;margin:.25rem 0 0}a{color:#3730a3}`;

/** The page CSP: nothing loads, nothing runs, forms post only here, nothing frames it. */
export const SIMULATED_PAGE_CSP = [
  "default-src 'none'",
  `style-src ${styleHashSource(CSS)}`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : '—');
const title = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
export const BILLING_PAGE = '/billing';

export function page(heading: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(heading)} – Simulated payments</title><style>${CSS}</style></head>
<body><p class="sim" role="note">Simulated payment provider — no money moves</p>
<main><h1>${escapeHtml(heading)}</h1>${body}</main></body></html>`;
}

/** A page that only says what happened, with the way back. */
export function messagePage(heading: string, text: string, back: { href: string; label: string } = { href: BILLING_PAGE, label: 'Back to Billing' }): string {
  return page(heading, `<p>${escapeHtml(text)}</p><p><a href="${escapeHtml(back.href)}">${escapeHtml(back.label)}</a></p>`);
}

function who(view: SessionView): string {
  const mode = view.session.livemode ? 'Live' : 'Sandbox rehearsal: the clinic’s real plan does not change';
  return `<p class="who">${escapeHtml(view.tenantName)} · ${escapeHtml(mode)}</p>`;
}

function form(action: string, id: string, buttons: string): string {
  return `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="token" value="${escapeHtml(id)}"><div class="actions">${buttons}</div></form>`;
}

const button = (action: string, label: string, secondary = false) =>
  `<button type="submit" name="action" value="${escapeHtml(action)}"${secondary ? ' class="secondary"' : ''}>${escapeHtml(label)}</button>`;

export function checkoutPage(view: SessionView, postPath: string): string {
  const plan = view.session.plan!;
  const list = listPriceCents(plan);
  const coupon = view.session.couponCode ? findSimulatedCoupon(view.session.couponCode) : null;
  const due = checkoutChargeCents(plan, view.session.percentOff);
  const rows = [
    ['Plan', `${title(plan)} — ${money(list)} / month`],
    ...(coupon ? [['Coupon', `${coupon.code}: ${coupon.description} (−${money(list - due)})`]] : []),
    ['Due today', money(due)],
    ['Then', `${money(list)} every month until cancelled`],
  ];
  const facts = `<dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>`;
  const buttons =
    button('pay', `Pay ${money(due)}`) +
    button('pay_card_declines_renewals', `Use a card that fails renewals (pays ${money(due)} today)`, true) +
    button('decline', 'Decline the payment', true);
  const hint =
    'Paying moves the plan at once; declining changes nothing. The card that declines renewals (like Stripe’s test card 4000 0000 0000 0341) ' +
    'pays today and declines every later charge, so the account goes into dunning at its first renewal: in sandbox, move the billing test clock to get there.';
  return page(`Subscribe to ${title(plan)}`, `${who(view)}${facts}${form(postPath, view.session.id, buttons)}<p class="hint">${escapeHtml(hint)}</p>`);
}

export function portalPage(view: SessionView, postPath: string): string {
  const a = view.account;
  const subscribed = a.status === 'active' || a.status === 'past_due';
  const renewal = !subscribed ? '—' : a.cancelAtPeriodEnd ? `Ends on ${day(a.periodEnd)}, then free` : `Renews on ${day(a.periodEnd)}`;
  const rows = [
    ['Plan', title(a.plan)],
    ['Status', a.status.replace('_', ' ')],
    ['Current period', a.periodStart ? `${day(a.periodStart)} to ${day(a.periodEnd)}` : '—'],
    ['Renewal', renewal],
    ['Amount due', money(a.amountDueCents)],
    ['Card on file', a.simulatedCardDeclines ? 'Declines charges (simulated)' : 'Accepts charges'],
  ];
  const facts = `<dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}</dl>`;
  const buttons = [
    a.amountDueCents > 0 ? button('pay_overdue', `Pay ${money(a.amountDueCents)} now`) : '',
    subscribed ? (a.cancelAtPeriodEnd ? button('resume', 'Resume the subscription') : button('cancel_at_period_end', 'Cancel at period end', true)) : '',
    subscribed && !a.simulatedCardDeclines ? button('fail_next_renewal', 'Simulate: the card declines from the next charge on', true) : '',
  ].join('');
  const actions = buttons ? form(postPath, view.session.id, buttons) : '<p>No subscription to manage: check out a plan from the Billing page.</p>';
  return page('Billing portal', `${who(view)}${facts}${actions}<p><a href="${BILLING_PAGE}">Back to Billing</a></p>`);
}
