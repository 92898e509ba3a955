import type { Schemas } from '@/sdk/src/index';
import { enabledLinkIds } from '@/server/lib/questionnaire-engine';
import type { EngineDocument } from '@/server/lib/questionnaire-shapes';

type Document = Schemas['Questionnaire']['document'];
type Item = Document['items'][number];

export interface Person {
  dateOfBirth: string;
  state: string;
  sex: string;
}

/** A plausible answer of the item's type: the person's own facts, mid-range numbers, the first option, "no". */
function answerFor(item: Item, person: Person): unknown {
  if (item.fact === 'dateOfBirth') return person.dateOfBirth;
  if (item.fact === 'state') return person.state;
  if (item.fact === 'sexAtBirth') return item.options?.find((o) => o.value === person.sex)?.value ?? item.options?.[0]?.value ?? person.sex;
  const { min, max } = item;
  const mid = min !== undefined && max !== undefined ? (min + max) / 2 : (min ?? max ?? 1);
  switch (item.type) {
    case 'boolean':
      return false;
    case 'choice':
      return item.options?.[0]?.value ?? 'other';
    case 'multi_choice':
      return item.options?.[0] ? [item.options[0].value] : [];
    case 'integer':
      return Math.round(mid);
    case 'decimal':
      return mid;
    case 'date':
      return person.dateOfBirth;
    default:
      return 'none';
  }
}

/**
 * Answers every question a patient would see, walking the form as the engine shows it (an answer may enable the
 * next question), so the submission is complete. Its verdict is whatever the clinic's rules make of them.
 */
export function syntheticAnswers(doc: Document, person: Person): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  const asOf = new Date().toISOString().slice(0, 10);
  for (let pass = 0; pass <= doc.items.length; pass++) {
    const open = enabledLinkIds(doc as unknown as EngineDocument, answers, { asOf }).filter((id) => !(id in answers));
    if (open.length === 0) break;
    for (const id of open) answers[id] = answerFor(doc.items.find((i) => i.linkId === id)!, person);
  }
  return answers;
}
