import { factItem } from '@/server/domain/intake/identity-facts';
import { patientView, type PatientViewItem } from '@/server/domain/intake/patient-view';
import { CONTACT_FIELDS, THEME_TOKENS, themeVariable, type FlowDocumentShape, type FlowStepShape, type LandingStepShape, type OutcomeStepShape, type QuizStepShape } from '@/server/domain/flows/shared/shapes';
import type { PinnedVersion } from './pinned-version';

/**
 * What a patient's browser receives of a flow version (spec "Flows: public runtime", DESIGN decision 24):
 * copy, theme tokens as `--nl-flow-*` CSS variables, step order and question shapes. Medical steps carry the
 * questionnaire's patient view of their items (no rules, rule ids or disqualifier logic). Everything is copied
 * field by field (an allow-list), so a field added to the document later stays private until someone decides
 * otherwise; settings (store secret, postbacks, protocol) are never part of it.
 */

export type PublicStep =
  | LandingStepShape
  | QuizStepShape
  | OutcomeStepShape
  | { id: string; kind: 'medical'; title: string; items: PatientViewItem[] }
  | { id: string; kind: 'consent'; title: string; text: string; version: string }
  | { id: string; kind: 'contact'; title: string; fields: (typeof CONTACT_FIELDS)[number][]; prefill: ContactPrefill };

/**
 * Which contact fields the page fills from the patient's own earlier answers (DESIGN decision 31): the linkId of
 * the medical item declaring the fact. The page copies the answer it already holds; no answer leaves the server.
 */
export interface ContactPrefill {
  dateOfBirth?: string;
  state?: string;
}

export interface PublicFlowDefinition {
  flowId: string;
  versionId: string;
  theme: { cssVariables: Record<string, string> };
  steps: PublicStep[];
  questionnaire: { key: string; version: number };
}

function pick<T extends object>(from: T, keys: readonly (keyof T)[]): T {
  const out = {} as T;
  for (const k of keys) if (from[k] !== undefined) out[k] = from[k];
  return out;
}

function publicStep(step: FlowStepShape, items: ReadonlyMap<string, PatientViewItem>, order: ReadonlyMap<string, number>, prefill: ContactPrefill): PublicStep {
  switch (step.kind) {
    case 'landing':
      return { id: step.id, kind: 'landing', blocks: pick(step.blocks, ['headline', 'body', 'cta']) };
    case 'quiz':
      return {
        id: step.id,
        kind: 'quiz',
        blocks: pick(step.blocks, ['title', 'body', 'cta']),
        questions: step.questions.map((q) => ({
          id: q.id,
          text: q.text,
          type: q.type,
          required: q.required,
          ...(q.options && { options: q.options.map((o) => ({ value: o.value, label: o.label })) }),
        })),
      };
    case 'outcome':
      return { id: step.id, kind: 'outcome', blocks: pick(step.blocks, ['eligibleTitle', 'eligibleBody', 'disqualifiedTitle', 'disqualifiedBody', 'cta', 'ctaUrl', 'disqualifiedCta', 'disqualifiedUrl']) };
    case 'medical': {
      // Questionnaire order, which is the order `enableWhen` reads in (a condition reads earlier items only).
      const linkIds = [...step.linkIds].filter((l) => items.has(l)).sort((a, b) => order.get(a)! - order.get(b)!);
      return { id: step.id, kind: 'medical', title: step.title, items: linkIds.map((l) => items.get(l)!) };
    }
    case 'consent':
      return { id: step.id, kind: 'consent', title: step.title, text: step.text, version: step.version };
    case 'contact':
      return { id: step.id, kind: 'contact', title: step.title, fields: [...CONTACT_FIELDS], prefill };
  }
}

/** The fact items (date of birth, state) a medical step of the flow asks, by fact. */
function prefillOf(questionnaire: PinnedVersion['questionnaire']['document'], document: FlowDocumentShape): ContactPrefill {
  const asked = new Set(document.steps.flatMap((s) => (s.kind === 'medical' ? s.linkIds : [])));
  const prefill: ContactPrefill = {};
  for (const fact of ['dateOfBirth', 'state'] as const) {
    const linkId = factItem(questionnaire, fact);
    if (linkId !== undefined && asked.has(linkId)) prefill[fact] = linkId;
  }
  return prefill;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const definitions = new Map<string, PublicFlowDefinition>();
const MAX_CACHED = 1000;

/**
 * The patient-safe definition of a pinned version, or of an experiment arm's document on it (`arm`: the
 * variant's copy, theme and presentation order; same clinical steps); built once per version and arm (the
 * documents are immutable).
 */
export function publicDefinition({ version, questionnaire }: PinnedVersion, arm?: { key: string; document: FlowDocumentShape }): PublicFlowDefinition {
  const cacheKey = arm ? `${version.id}:${arm.key}` : version.id;
  const document = arm?.document ?? version.document;
  const cached = definitions.get(cacheKey);
  if (cached) return cached;
  const view = patientView(questionnaire.document);
  const items = new Map(view.items.map((i) => [i.linkId, i]));
  const order = new Map(view.items.map((i, n) => [i.linkId, n]));
  const tokens = document.theme.tokens;
  const cssVariables: Record<string, string> = {};
  for (const token of THEME_TOKENS) if (tokens[token] !== undefined) cssVariables[themeVariable(token)] = tokens[token];
  const definition: PublicFlowDefinition = {
    flowId: version.flowId,
    versionId: version.id,
    theme: { cssVariables },
    steps: document.steps.map((s) => publicStep(s, items, order, prefillOf(questionnaire.document, document))),
    questionnaire: { key: questionnaire.key, version: questionnaire.version },
  };
  if (definitions.size >= MAX_CACHED) definitions.clear();
  // Frozen: one object is served to every session of the version, so nothing may change it (and the response
  // check may trust it once checked, server/api/checked-once.ts).
  definitions.set(cacheKey, deepFreeze(definition));
  return definition;
}
