import type { Condition, QuestionnaireDocument } from './questionnaire-schema';

/** An item as a patient's form needs it: its wording, shape and when it shows, nothing of the clinic's rules. */
export interface PatientItem {
  linkId: string;
  text: string;
  help?: string;
  type: QuestionnaireDocument['items'][number]['type'];
  required: boolean;
  options?: { value: string; label: string }[];
  min?: number;
  max?: number;
  unit?: 'cm' | 'in' | 'kg' | 'lb';
  /** When the item shows: presentation logic the browser evaluates live (server/lib/conditions.ts). */
  enableWhen?: Condition;
}

export interface PatientQuestionnaire {
  key: string;
  title: string;
  description?: string;
  items: PatientItem[];
}

/**
 * The patient-safe projection of a questionnaire: no rules, so no rule ids, no disqualifier logic and no
 * patient messages ahead of time; no protocol. Fields are copied one by one, so a field added to the document
 * later is not exposed by accident.
 */
export function patientView(doc: QuestionnaireDocument): PatientQuestionnaire {
  return {
    key: doc.key,
    title: doc.title,
    ...(doc.description ? { description: doc.description } : {}),
    items: doc.items.map((i) => ({
      linkId: i.linkId,
      text: i.text,
      ...(i.help ? { help: i.help } : {}),
      type: i.type,
      required: i.required,
      ...(i.options ? { options: i.options.map((o) => ({ value: o.value, label: o.label })) } : {}),
      ...(i.min !== undefined ? { min: i.min } : {}),
      ...(i.max !== undefined ? { max: i.max } : {}),
      ...(i.unit ? { unit: i.unit } : {}),
      ...(i.enableWhen ? { enableWhen: i.enableWhen } : {}),
    })),
  };
}
