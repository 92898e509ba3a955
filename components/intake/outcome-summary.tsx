import { useId } from 'react';

/** The button of an outcome page: the checkout handoff, or a page of the clinic's own site. */
export interface OutcomeAction {
  href: string;
  label: string;
  /** In a frame: `_top` replaces the host page (the clinic's own store), `_blank` opens a tab. */
  target?: '_top' | '_blank';
}

export interface OutcomeSummaryProps {
  verdict: 'eligible' | 'disqualified';
  /** The clinic's outcome copy for the verdict, shown once; empty when the clinic wrote none. */
  body?: string;
  /** The clinic's patient messages of the matched rules: a disqualified run's reason, an eligible run's review points. */
  patientMessages?: readonly string[];
  action?: OutcomeAction;
  /** The clinic's button label when it has no address (no checkout, no page): said first in "what happens next". */
  nextStep?: string;
  /** The submission's short reference, for the patient to quote. */
  reference?: string;
  /** The eligible run continues at the clinic's checkout before the review. */
  checkout?: boolean;
  /** Classes of the button (the flow's themed one on flow pages). */
  buttonClassName?: string;
}

const BUTTON = 'w-full rounded-md bg-indigo-700 px-4 py-3 text-base font-semibold text-white shadow-sm hover:bg-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-700';

/** What happens after the submit, in order, in words that do not repeat the clinic's own copy. */
function nextSteps({ verdict, patientMessages = [], reference, checkout, nextStep }: OutcomeSummaryProps): string[] {
  if (verdict === 'disqualified') {
    return [
      'Nothing will be prescribed or ordered from these answers.',
      reference ? `If you think an answer was wrong, contact the clinic and quote your reference ${reference}.` : 'If you think an answer was wrong, contact the clinic.',
    ];
  }
  return [
    ...(checkout ? ['Finish your checkout with the clinic.'] : []),
    ...(nextStep ? [nextStep] : []),
    'A licensed provider reviews your answers. Nothing is prescribed without their approval.',
    ...patientMessages,
    'If the provider needs to know more, the clinic contacts you.',
    'If the treatment is right for you, your prescription goes to a pharmacy, which ships it to you.',
  ];
}

/**
 * The end of a patient's run, the same on the hosted flow, the embedded frame and the one-time intake link:
 * the clinic's copy once, a disqualified run's reason once, the configured button, the reference to quote and
 * what happens next. Verdict and reference only: never a rule id, an answer or the patient's details.
 */
export function OutcomeSummary(props: OutcomeSummaryProps) {
  const id = useId();
  const { verdict, body, patientMessages = [], action, reference, buttonClassName = BUTTON } = props;
  const reasons = verdict === 'disqualified' ? patientMessages : [];
  const referenceBox = reference && (
    <div className="rounded-[var(--nl-flow-radius,0.375rem)] border border-slate-300 bg-[var(--nl-flow-surface,#fff)] p-4" data-testid="outcome-reference">
      <p className="text-sm font-medium">Your reference</p>
      <p className="font-mono text-2xl font-semibold tracking-widest text-[var(--nl-flow-text,#0f172a)]">{reference}</p>
      <p className="mt-1 text-sm">Quote it if you contact the clinic about this request.</p>
    </div>
  );
  // The result itself (copy, reason, reference) is the status; the button sits between the copy and the reference.
  return (
    <div className="space-y-6 text-base text-[var(--nl-flow-text,#334155)]">
      <div role="status" className="space-y-6">
        {(body || reasons.length > 0) && (
          <div className="space-y-3">
            {body && <p className="whitespace-pre-line">{body}</p>}
            {reasons.map((reason) => (
              <p key={reason}>{reason}</p>
            ))}
          </div>
        )}
        {action && (
          <a href={action.href} target={action.target} rel="noopener noreferrer" className={`${buttonClassName} block text-center`} data-testid="outcome-action">
            {action.label}
          </a>
        )}
        {referenceBox}
      </div>
      <section aria-labelledby={`${id}-next`} className="space-y-2">
        <h2 id={`${id}-next`} className="text-lg font-semibold text-[var(--nl-flow-text,#0f172a)]">
          What happens next
        </h2>
        <ol className="list-decimal space-y-2 pl-5">
          {nextSteps(props).map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
      </section>
    </div>
  );
}

/**
 * The outcome of a questionnaire sent without a flow (the intake frame, the one-time link): no clinic copy
 * exists, so the service's sentence is said once, for a disqualified run, before its reason; an eligible run's
 * "what happens next" says the rest. No button: a questionnaire names no destination.
 */
export function IntakeOutcome({ outcome }: { outcome: { verdict: 'eligible' | 'disqualified'; message: string; patientMessages: readonly string[]; reference?: string } }) {
  return (
    <OutcomeSummary
      verdict={outcome.verdict}
      body={outcome.verdict === 'disqualified' ? outcome.message : undefined}
      patientMessages={outcome.patientMessages}
      reference={outcome.reference}
    />
  );
}
