'use client';

import { memo } from 'react';
import { QuestionnaireForm } from '@/components/intake/questionnaire-form';
import { rawOf } from '@/components/intake/answers';
import type { FieldErrors } from '@/components/intake/types';
import { ContactForm, type EarlierAnswer } from './contact-form';
import { secondaryButton } from './error-summary';
import { quizItems } from './flow-progress';
import { ConsentStep, LandingStep } from './simple-steps';
import type { ContactAnswers, PublicStep } from './types';

interface Props {
  step: PublicStep;
  /** What the patient sent on this page before (in this visit, or read back with a resumed session), to show it again. */
  remembered?: Readonly<Record<string, unknown>>;
  last: boolean;
  /** Contact details the patient already gave as answers (date of birth, state), to open the contact step with. */
  prefill?: Partial<ContactAnswers>;
  /** Contact fields refused as differing from an earlier answer: where that answer was given, and the way there. */
  earlier?: Partial<Record<keyof ContactAnswers, EarlierAnswer>>;
  onSubmit(answers: Record<string, unknown>): Promise<FieldErrors | null>;
}

const contactOf = (a: Readonly<Record<string, unknown>>): Partial<ContactAnswers> => ({
  ...Object.fromEntries(Object.entries(a).filter((e): e is [string, string] => typeof e[1] === 'string')),
  ...(a.smsConsent === true && { smsConsent: true }),
});

/**
 * What a step's form shows, compared by value: the flow re-renders when its session's id arrives or a save
 * settles, and a page of forty questions need not be drawn again for that on a phone's main thread. Functions
 * are not compared: the flow hands the step handlers that always call its latest state (flow-runner.tsx).
 */
function sameView(a: Props, b: Props): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as (keyof Props)[]);
  return [...keys].every((k) => typeof a[k] === 'function' || a[k] === b[k] || JSON.stringify(a[k]) === JSON.stringify(b[k]));
}

/** One step's form, by kind, opened with what the patient answered there before (after going back). */
export const StepBody = memo(function StepBody({ step, remembered, last, prefill, earlier, onSubmit }: Props) {
  const label = last ? 'See my result' : 'Continue';
  switch (step.kind) {
    case 'landing':
      return <LandingStep step={step} onSubmit={onSubmit} />;
    case 'quiz':
      return (
        <>
          {step.blocks.body && <p className="mb-6 text-base">{step.blocks.body}</p>}
          <QuestionnaireForm
            questionnaire={{ key: step.id, title: step.blocks.title, items: quizItems(step.questions) }}
            initial={remembered && rawOf(remembered)}
            submitLabel={step.blocks.cta ?? label}
            onSubmit={onSubmit}
          />
        </>
      );
    case 'medical':
      return <QuestionnaireForm questionnaire={{ key: step.id, title: step.title, items: step.items }} initial={remembered && rawOf(remembered)} submitLabel={label} onSubmit={onSubmit} />;
    case 'consent':
      return <ConsentStep step={step} given={remembered?.accepted === true} onSubmit={onSubmit} />;
    case 'contact':
      return <ContactForm submitLabel={label} initial={{ ...prefill, ...(remembered && contactOf(remembered)) }} earlier={earlier} onSubmit={(v) => onSubmit({ ...v })} />;
    default:
      return null;
  }
}, sameView);

/**
 * "Back" to the previous step: a real button after the step's form, so it comes after the primary action in
 * the tab order on every step, and Enter in a field still submits the form, never goes back. On the hosted page
 * it is the browser's Back when the entry below is that step (step-history.ts), so both walk the same entries.
 */
export function BackButton({ onBack, disabled }: { onBack(): void; disabled?: boolean }) {
  return (
    <div className="mt-4">
      <button type="button" onClick={onBack} disabled={disabled} className={secondaryButton}>
        Back
      </button>
    </div>
  );
}
