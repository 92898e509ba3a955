import type { Schemas } from '@/sdk/src/index';
import { enabledLinkIds, evaluate } from '@/server/domain/intake/shared/engine';
import type { EngineDocument } from '@/server/domain/intake/shared/shapes';

type Document = Schemas['Questionnaire']['document'];
type Item = Document['items'][number];
type Verdict = 'eligible' | 'disqualified' | 'incomplete';

export interface Person {
  dateOfBirth: string;
  state: string;
  sex: string;
}

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/** Plausible answers of the item's type: the person's own facts, numbers across the item's range, each option. */
function candidates(item: Item, person: Person): unknown[] {
  if (item.fact === 'dateOfBirth') return [person.dateOfBirth];
  if (item.fact === 'state') return [person.state];
  if (item.fact === 'sexAtBirth') {
    const own = item.options?.find((o) => o.value === person.sex)?.value;
    return [own ?? item.options?.[0]?.value ?? person.sex];
  }
  const { min = 1, max = Math.max(min, 300) } = item;
  const spread = [0.5, 0.25, 0.75, 0, 1].map((f) => min + (max - min) * f);
  switch (item.type) {
    case 'boolean':
      return [false, true];
    case 'choice':
      return item.options?.map((o) => o.value) ?? ['other'];
    case 'multi_choice':
      return item.options?.map((o) => [o.value]) ?? [[]];
    case 'integer':
      return spread.map(Math.round);
    case 'decimal':
      return spread;
    case 'date':
      return [daysAgo(60), daysAgo(400), person.dateOfBirth];
    default:
      return ['none'];
  }
}

/**
 * Answers to every question a patient would see (an answer may enable the next one), `pick` choosing among each
 * item's candidates. The first pick of each is the mildest answer (a "no", the middle of a range).
 */
function fill(doc: Document, person: Person, pick: (options: unknown[]) => unknown): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  const asOf = new Date().toISOString().slice(0, 10);
  for (let pass = 0; pass <= doc.items.length; pass++) {
    const open = enabledLinkIds(doc as unknown as EngineDocument, answers, { asOf }).filter((id) => !(id in answers));
    if (open.length === 0) break;
    for (const id of open) answers[id] = pick(candidates(doc.items.find((i) => i.linkId === id)!, person));
  }
  return answers;
}

/** Complete answers (no required question left), whatever verdict the clinic's rules make of them. */
export function syntheticAnswers(doc: Document, person: Person): Record<string, unknown> {
  return fill(doc, person, (options) => options[0]);
}

/**
 * Complete answers the questionnaire's own engine judges `verdict`: the mildest answers first, then random ones
 * until the engine agrees (a form whose rules cannot give that verdict from these candidates: null).
 */
export function answersFor(doc: Document, person: Person, verdict: Exclude<Verdict, 'incomplete'>, tries = 2_000): Record<string, unknown> | null {
  const asOf = new Date().toISOString().slice(0, 10);
  for (let i = 0; i < tries; i++) {
    const answers = i === 0 ? syntheticAnswers(doc, person) : fill(doc, person, (options) => options[Math.floor(Math.random() * options.length)]);
    if (evaluate(doc as unknown as EngineDocument, answers, { asOf }).verdict === verdict) return answers;
  }
  return null;
}
