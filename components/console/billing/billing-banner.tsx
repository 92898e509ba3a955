'use client';

import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { currentMode, switchMode, useTRPC } from '@/web/trpc/client';
import { formatDate } from '../ui/format';
import type { DunningStage } from './billing-types';
import { isPastDue, STAGE_WORDS } from './stage-words';

const TONE: Record<DunningStage, string> = {
  healthy: '',
  recovered: '',
  grace: 'border-amber-300 bg-amber-50 text-amber-950',
  warning: 'border-amber-400 bg-amber-100 text-amber-950',
  restricted: 'border-red-300 bg-red-50 text-red-900',
  suspended: 'border-red-400 bg-red-100 text-red-950',
};

function openLiveBilling(e: React.MouseEvent<HTMLAnchorElement>) {
  e.preventDefault();
  switchMode('live');
  window.location.assign('/billing');
}

/**
 * The strip every console page shows while a payment is past due: the stage, what it means, when it moves
 * next, and the way to the Billing page. It renders nothing while loading, on any error, and when healthy:
 * billing must never break a page. Not on /billing itself, which shows all of it in full.
 */
export function BillingBanner({ canManage }: { canManage: boolean }) {
  const trpc = useTRPC();
  const onBillingPage = usePathname() === '/billing';
  const banner = useQuery({ ...trpc.billing.banner.queryOptions(), retry: false, refetchInterval: 5 * 60_000 });
  const state = banner.data;
  if (onBillingPage || !state || !isPastDue(state.stage)) return null;

  const words = STAGE_WORDS[state.stage];
  // A stage that pauses something is announced at once; a grace period or a warning waits its turn.
  const urgent = state.stage === 'restricted' || state.stage === 'suspended';
  return (
    <div role={urgent ? 'alert' : 'status'} data-testid="billing-banner" data-stage={state.stage} className={`mb-6 rounded-lg border px-4 py-3 text-sm ${TONE[state.stage]}`}>
      <p>
        <strong className="font-semibold">
          {state.livemode ? 'Live billing' : 'Sandbox billing'}: {words.label}.
        </strong>{' '}
        {words.summary}
      </p>
      {words.paused.length > 0 && <p className="mt-1">Paused now: {words.paused.join('; ')}.</p>}
      {words.next && state.nextActionAt && (
        <p className="mt-1">
          On {formatDate(state.nextActionAt)} (UTC): {words.next}.
        </p>
      )}
      <p className="mt-2">
        {canManage && state.livemode && currentMode() === 'sandbox' ? (
          // The live account is managed in live mode: switch, then load the page whole so the shell shows live too.
          <a href="/billing" onClick={openLiveBilling} className="font-semibold underline underline-offset-2">
            Switch to live mode and pay or update the card on the Billing page
          </a>
        ) : canManage ? (
          <Link href="/billing" className="font-semibold underline underline-offset-2">
            Pay or update the card on the Billing page
          </Link>
        ) : (
          <>
            An owner or admin of this clinic can settle it on the{' '}
            <Link href="/billing" className="font-semibold underline underline-offset-2">
              Billing page
            </Link>
            .
          </>
        )}
      </p>
    </div>
  );
}
