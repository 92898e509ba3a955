import { OutcomeSummary, type OutcomeAction } from '@/components/intake/outcome-summary';
import { primaryButton } from './error-summary';
import type { OutcomeView } from './flow-progress';

const hostOf = (url: string) => {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
};

/**
 * The end of a run: the flow's copy for the verdict, its button (a label without an address is said as the
 * first next step instead), the reference and what happens next (never a rule or the answer that decided it). On the hosted page the button opens in place. In a frame, the
 * checkout replaces the host page when the host is that store (`shop`), and any other link opens a new tab.
 */
export function OutcomePanel({ outcome, embedded, shop }: { outcome: OutcomeView; embedded?: boolean; shop?: string | null }) {
  let action: OutcomeAction | undefined;
  if (outcome.action) {
    const { href, label, checkout } = outcome.action;
    const store = shop?.replace(/^https?:\/\//, '').replace(/\/.*$/, '');
    const target = !embedded ? undefined : checkout && store && hostOf(href) === store ? '_top' : '_blank';
    action = { href, label, ...(target ? { target } : {}) };
  }
  return (
    <OutcomeSummary
      verdict={outcome.verdict}
      body={outcome.body}
      patientMessages={outcome.patientMessages}
      action={action}
      nextStep={outcome.nextStep}
      reference={outcome.reference}
      checkout={Boolean(outcome.checkoutUrl)}
      buttonClassName={primaryButton}
    />
  );
}
