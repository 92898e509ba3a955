import { DERIVED, type Condition, type QuestionnaireDocument } from '@/server/domain/intake/questionnaire-schema';
import { walk } from '@/server/domain/intake/condition-walk';
import type { ConsentStepShape, ContactStepShape, FlowDocumentShape, MedicalStepShape, PresentationStepShape } from '@/server/domain/flows/shared/shapes';

/**
 * The clinical plane of a generated or seeded flow, built from an approved questionnaire alone: nothing a
 * description or a model says reaches these steps (DESIGN decision 22). Same questionnaire, same steps, same
 * clinical-plane hash.
 */

/** Questions per medical page: a phone screen's worth. */
export const MEDICAL_PAGE_SIZE = 5;
/** Steps a document may hold (30) minus landing, quiz, consent, contact and outcome. */
const MAX_MEDICAL_PAGES = 25;

export const CONSENT_STEP: ConsentStepShape = {
  id: 'consent',
  kind: 'consent',
  title: 'Consent to telehealth care',
  text:
    'I agree to be evaluated through telehealth. A licensed provider will review my answers before any treatment is prescribed, ' +
    'and may contact me with questions or decline to prescribe. I confirm that my answers are true and complete to the best of my knowledge, ' +
    'and I will tell the provider if my health or medications change.',
  version: '2026-01',
};

export const CONTACT_STEP: ContactStepShape = { id: 'contact', kind: 'contact', title: 'Your contact details' };

/** The linkIds a condition reads: the item itself, or the items behind `age(…)` and `bmi(…, …)`. */
export function conditionLinkIds(condition: Condition): string[] {
  const ids: string[] = [];
  walk(condition, '', (cmp) => {
    const derived = DERIVED.exec(cmp.q);
    if (!derived) ids.push(cmp.q);
    else if (derived[1]) ids.push(derived[2]);
    else ids.push(derived[4], derived[5]);
  });
  return ids;
}

/** Items asked together whatever the page size: an item and those its `enableWhen` reads; height and weight of a BMI. */
function itemGroups(doc: QuestionnaireDocument): number[][] {
  const index = new Map(doc.items.map((item, i) => [item.linkId, i]));
  const parent = doc.items.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i])));
  const join = (linkIds: string[]) => {
    const found = linkIds.map((id) => index.get(id)).filter((i): i is number => i !== undefined);
    for (const i of found.slice(1)) parent[root(i)] = root(found[0]);
  };
  doc.items.forEach((item) => item.enableWhen && join([item.linkId, ...conditionLinkIds(item.enableWhen)]));
  for (const rule of doc.rules) {
    walk(rule.when, '', (cmp) => {
      const derived = DERIVED.exec(cmp.q);
      if (derived?.[3]) join([derived[4], derived[5]]);
    });
  }
  const groups = new Map<number, number[]>();
  doc.items.forEach((_, i) => groups.set(root(i), [...(groups.get(root(i)) ?? []), i]));
  // Map order is the order of each group's first item.
  return [...groups.values()];
}

/**
 * The questionnaire's items split into pages such that an item's `enableWhen` only reads items on its own
 * page (the browser shows and hides with the current page's answers alone). Groups (see itemGroups) never
 * split; consecutive groups fill pages as close to an even size near MEDICAL_PAGE_SIZE as they allow (a
 * small dynamic programme over the groups), and each page lists its items in document order, the order the
 * engine evaluates them in.
 */
export function medicalPageLinkIds(doc: QuestionnaireDocument): string[][] {
  const groups = itemGroups(doc);
  const n = doc.items.length;
  const pageSize = Math.max(MEDICAL_PAGE_SIZE, Math.ceil(n / MAX_MEDICAL_PAGES));
  const target = Math.ceil(n / Math.ceil(n / pageSize));
  const limit = Math.max(pageSize + 1, target);
  // best[j]: cheapest paging of the first j groups; each page costs its distance from the target, squared, plus one.
  const best: { cost: number; from: number }[] = [{ cost: 0, from: -1 }];
  for (let j = 1; j <= groups.length; j++) {
    best[j] = { cost: Infinity, from: j - 1 };
    let size = 0;
    for (let i = j - 1; i >= 0; i--) {
      size += groups[i].length;
      if (size > limit && i < j - 1) break;
      const cost = best[i].cost + (size - target) ** 2 + 1;
      if (cost < best[j].cost) best[j] = { cost, from: i };
    }
  }
  const pages: number[][] = [];
  for (let j = groups.length; j > 0; j = best[j].from) pages.unshift(groups.slice(best[j].from, j).flat());
  return pages.map((p) => p.sort((a, b) => a - b).map((i) => doc.items[i].linkId));
}

export function medicalSteps(doc: QuestionnaireDocument): MedicalStepShape[] {
  const pages = medicalPageLinkIds(doc);
  return pages.map((linkIds, i) => ({
    id: `medical-${i + 1}`,
    kind: 'medical',
    title: pages.length === 1 ? 'Your health' : `Your health (${i + 1} of ${pages.length})`,
    linkIds,
  }));
}

export interface FlowPresentation {
  landing: Extract<PresentationStepShape, { kind: 'landing' }>['blocks'];
  quiz: { blocks: Extract<PresentationStepShape, { kind: 'quiz' }>['blocks']; questions: Extract<PresentationStepShape, { kind: 'quiz' }>['questions'] };
  outcome: Extract<PresentationStepShape, { kind: 'outcome' }>['blocks'];
  theme: FlowDocumentShape['theme'];
}

/**
 * A whole flow document: landing and marketing quiz first, then every item of the questionnaire on medical
 * pages, consent, contact, and the outcome last. Presentation copy comes from the caller; the clinical plane
 * from the questionnaire only.
 */
export function composeFlowDocument(questionnaire: QuestionnaireDocument, presentation: FlowPresentation, settings: Omit<FlowDocumentShape['settings'], 'questionnaireKey'> = {}): FlowDocumentShape {
  return {
    steps: [
      { id: 'welcome', kind: 'landing', blocks: presentation.landing },
      { id: 'quiz', kind: 'quiz', blocks: presentation.quiz.blocks, questions: presentation.quiz.questions },
      ...medicalSteps(questionnaire),
      { ...CONSENT_STEP },
      { ...CONTACT_STEP },
      { id: 'outcome', kind: 'outcome', blocks: presentation.outcome },
    ],
    theme: presentation.theme,
    settings: { questionnaireKey: questionnaire.key, ...settings },
  };
}
