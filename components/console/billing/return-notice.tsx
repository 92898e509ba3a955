'use client';

import { useRouter } from 'next/navigation';
import { planName } from './plan-words';

export interface BillingReturn {
  checkout?: string;
  portal?: string;
}

type Tone = 'success' | 'error' | 'neutral';
const TONE: Record<Tone, string> = {
  success: 'border-emerald-200 bg-emerald-50 text-emerald-900',
  error: 'border-red-200 bg-red-50 text-red-900',
  neutral: 'border-slate-200 bg-slate-50 text-slate-800',
};

/** What the checkout or portal page's return address says happened, in words (`plan`: the plan the page shows now). */
export function returnMessage(back: BillingReturn, plan: string | undefined): { tone: Tone; text: string } | null {
  const now = plan ? ` You are on the ${planName(plan)} plan.` : '';
  switch (back.checkout) {
    case 'paid':
      return { tone: 'success', text: `Payment received, thank you.${now}` };
    case 'success':
      return { tone: 'success', text: 'Checkout complete. The new plan shows here as soon as the payment provider confirms the payment, usually within seconds.' };
    case 'declined':
      return { tone: 'error', text: `The payment was declined and nothing changed.${now} Try again with another card.` };
    case 'cancelled':
    case 'canceled':
      return { tone: 'neutral', text: `Checkout cancelled: nothing was charged.${now}` };
  }
  if (back.portal === undefined) return null;
  // The simulated portal names the action it carried out (server/domain/billing/simulated.ts PORTAL_ACTIONS).
  switch (back.portal) {
    case 'pay_overdue':
      return { tone: 'success', text: 'The overdue invoice is paid: everything works again.' };
    case 'cancel_at_period_end':
      return { tone: 'neutral', text: 'The subscription will end at the end of the current period; the plan then returns to Free.' };
    case 'resume':
      return { tone: 'success', text: 'The subscription continues: it renews at the end of the period.' };
    case 'fail_next_renewal':
      return { tone: 'neutral', text: 'Simulation: the card now declines, so the next renewal fails and the dunning stages follow.' };
    default:
      return { tone: 'neutral', text: 'Back from the billing portal. What you changed there shows below.' };
  }
}

/** The notice shown after the browser comes back from the checkout or the portal; Dismiss clears the address. */
export function ReturnNotice({ back, plan }: { back: BillingReturn; plan: string | undefined }) {
  const router = useRouter();
  const message = returnMessage(back, plan);
  if (!message) return null;
  return (
    <div role="status" data-testid="billing-notice" className={`flex flex-wrap items-start justify-between gap-3 rounded-lg border px-4 py-3 text-sm ${TONE[message.tone]}`}>
      <p className="min-w-0 flex-1">{message.text}</p>
      <button type="button" onClick={() => router.replace('/billing')} className="text-sm font-semibold underline underline-offset-2">
        Dismiss
      </button>
    </div>
  );
}
