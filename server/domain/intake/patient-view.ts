import type { Condition, IdentityFact, QuestionnaireDocument, QuestionnaireItem } from './questionnaire-schema';

/**
 * What a patient's browser may see of a questionnaire (public and hosted endpoints): the items and their
 * display logic (enableWhen, so the form can show and hide questions live), nothing of the eligibility logic —
 * no rules, rule ids, disqualifiers or protocol. Built field by field (an allow-list), so a field added to the
 * document later stays private until someone decides otherwise.
 */

export interface PatientViewItem {
  linkId: string;
  text: string;
  help?: string;
  type: QuestionnaireItem['type'];
  required: boolean;
  /** `exclusive`: "None of these" (decision 46); the page unticks the other options when it is ticked. */
  options?: { value: string; label: string; exclusive?: true }[];
  min?: number;
  max?: number;
  unit?: QuestionnaireItem['unit'];
  enableWhen?: Condition;
  /** The identity fact the answer also gives, so the page can prefill the contact details with it. */
  fact?: IdentityFact;
}

export interface PatientView {
  key: string;
  title: string;
  description?: string;
  items: PatientViewItem[];
}

export function patientView(doc: QuestionnaireDocument): PatientView {
  return {
    key: doc.key,
    title: doc.title,
    ...(doc.description !== undefined && { description: doc.description }),
    items: doc.items.map((item) => {
      const out: PatientViewItem = { linkId: item.linkId, text: item.text, type: item.type, required: item.required };
      if (item.help !== undefined) out.help = item.help;
      if (item.options) out.options = item.options.map((o) => ({ value: o.value, label: o.label, ...(o.exclusive === true && { exclusive: true as const }) }));
      if (item.min !== undefined) out.min = item.min;
      if (item.max !== undefined) out.max = item.max;
      if (item.unit !== undefined) out.unit = item.unit;
      if (item.enableWhen) out.enableWhen = structuredClone(item.enableWhen);
      if (item.fact !== undefined) out.fact = item.fact;
      return out;
    }),
  };
}
