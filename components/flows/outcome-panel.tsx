import { primaryButton } from './error-summary';
import type { OutcomeView } from './flow-progress';

/**
 * The end of a run: the flow's copy for the verdict and the service's patient-safe message (never a rule or
 * the answer that decided it). An eligible run with a store handoff links to the clinic's checkout; in a frame
 * the link replaces the host page when the host is that store (`shop`), else opens a new tab.
 */
export function OutcomePanel({ outcome, embedded, shop }: { outcome: OutcomeView; embedded?: boolean; shop?: string | null }) {
  let target: string | undefined;
  if (outcome.checkoutUrl && embedded) {
    const host = new URL(outcome.checkoutUrl).hostname;
    target = shop && host === shop.replace(/^https?:\/\//, '').replace(/\/.*$/, '') ? '_top' : '_blank';
  }
  return (
    <div className="space-y-6">
      <div role="status" className="space-y-3 text-base text-[var(--nl-flow-text,#334155)]">
        <p>{outcome.body}</p>
        {outcome.message && outcome.message !== outcome.body && <p>{outcome.message}</p>}
      </div>
      {outcome.checkoutUrl && (
        <a href={outcome.checkoutUrl} target={target} rel="noopener noreferrer" className={`${primaryButton} block text-center`}>
          {outcome.cta ?? 'Continue to checkout'}
        </a>
      )}
    </div>
  );
}
