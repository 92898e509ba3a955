import { answeredFacts, factMismatch } from '@/server/domain/intake/identity-facts';
import type { PinnedVersion } from './pinned-version';

type Held = Record<string, Record<string, unknown>>;

/** The questionnaire answers held for the version's medical steps, merged (each item lives on one step). */
export function heldMedicalAnswers(pinned: PinnedVersion, held: Held): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const step of pinned.version.document.steps) if (step.kind === 'medical') Object.assign(answers, held[step.id] ?? {});
  return answers;
}

/**
 * The contact step's answers reconciled with the identity facts already answered on medical steps (DESIGN
 * decision 31): a date of birth or state left out is taken from the answer (the page shows it prefilled); one
 * that differs is refused with 400 naming the field, before anything is held.
 */
export function contactWithFacts(pinned: PinnedVersion, held: Held, answers: Record<string, unknown>): Record<string, unknown> {
  const facts = answeredFacts(pinned.questionnaire.document, heldMedicalAnswers(pinned, held));
  const out = { ...answers };
  for (const fact of ['dateOfBirth', 'state'] as const) {
    const known = facts[fact];
    if (known === undefined) continue;
    const sent = out[fact];
    if (sent === undefined || sent === null || sent === '') out[fact] = known;
    else if (sent !== known) throw factMismatch(fact, `answers.${fact}`);
  }
  return out;
}
