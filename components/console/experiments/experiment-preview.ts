import { FLOW_OVERRIDE_ID, isClinicalStep, THEME_TOKENS, type FlowDocumentShape, type FlowStepShape, type ThemeToken } from '@/server/domain/flows/shared/shapes';
import type { ExperimentOverride } from './experiment-types';

/**
 * The variant as the preview draws it: the control's document with the overrides applied the way the server
 * applies them (DESIGN decision 27): block fields of presentation steps, `$flow` theme tokens and the order of
 * presentation steps; clinical steps untouched and in place. The server's own `applyOverrides` lives in the
 * domain layer, which console components may not import, and it throws on the first refusal; the preview
 * instead shows every override it can and lists what the server will refuse, the server remaining the judge.
 */

/** What the preview needs of a document (the API's view of one hides the checkout secret; the preview never reads settings). */
export type PreviewDocument = Pick<FlowDocumentShape, 'steps' | 'theme'>;

export interface PreviewNote {
  index: number;
  stepId: string;
  text: string;
}

export interface VariantPreview<D extends PreviewDocument> {
  document: D;
  notes: PreviewNote[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function patched(step: FlowStepShape, blocks: Record<string, unknown>): FlowStepShape {
  if (isClinicalStep(step)) return step;
  const merged: Record<string, unknown> = { ...step.blocks };
  for (const [field, value] of Object.entries(blocks)) {
    if (value === null) delete merged[field];
    else if (typeof value === 'string') merged[field] = value;
  }
  return { ...step, blocks: merged } as FlowStepShape;
}

function reordered(steps: FlowStepShape[], order: unknown): FlowStepShape[] | string {
  if (!Array.isArray(order) || !order.every((id) => typeof id === 'string')) return 'order must be a list of step ids.';
  const presentation = steps.filter((s) => !isClinicalStep(s));
  const clinical = order.find((id) => steps.some((s) => s.id === id && isClinicalStep(s)));
  if (clinical) return `'${clinical}' is a clinical step; its position cannot change.`;
  const ids = presentation.map((s) => s.id);
  if (order.length !== ids.length || new Set(order).size !== order.length || !order.every((id) => ids.includes(id))) {
    return `order must list every presentation step once (${ids.join(', ')}).`;
  }
  const queue = order.map((id) => presentation.find((s) => s.id === id)!);
  return steps.map((s) => (isClinicalStep(s) ? s : queue.shift()!));
}

export function variantPreview<D extends PreviewDocument>(control: D, overrides: readonly ExperimentOverride[]): VariantPreview<D> {
  const notes: PreviewNote[] = [];
  let steps = [...control.steps];
  let tokens: Partial<Record<ThemeToken, string>> = { ...control.theme.tokens };
  overrides.forEach((o, index) => {
    if (o.stepId === FLOW_OVERRIDE_ID) {
      const { theme, order } = o.blocks;
      if (theme !== undefined) {
        if (!isRecord(theme)) notes.push({ index, stepId: o.stepId, text: 'theme must map tokens to values.' });
        else {
          for (const [token, value] of Object.entries(theme)) {
            if (!(THEME_TOKENS as readonly string[]).includes(token)) notes.push({ index, stepId: o.stepId, text: `'${token}' is not a theme token.` });
            else if (value === null) delete tokens[token as ThemeToken];
            else if (typeof value === 'string') tokens = { ...tokens, [token]: value };
          }
        }
      }
      if (order !== undefined) {
        const next = reordered(steps, order);
        if (typeof next === 'string') notes.push({ index, stepId: o.stepId, text: next });
        else steps = next;
      }
      return;
    }
    const at = steps.findIndex((s) => s.id === o.stepId);
    if (at < 0) notes.push({ index, stepId: o.stepId, text: 'This flow has no such step.' });
    else if (isClinicalStep(steps[at])) notes.push({ index, stepId: o.stepId, text: `A ${steps[at].kind} step is clinical and locked: both arms keep it as approved.` });
    else steps[at] = patched(steps[at], o.blocks);
  });
  return { document: { ...control, steps, theme: { tokens } }, notes };
}

/** The overrides typed in the form's JSON box, or why they cannot be read. */
export function parseOverrides(text: string): { overrides: ExperimentOverride[] } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text.trim() || '[]');
  } catch {
    return { error: 'The overrides are not valid JSON.' };
  }
  if (!Array.isArray(value)) return { error: 'The overrides must be a JSON list.' };
  for (const [i, o] of value.entries()) {
    if (!isRecord(o) || typeof o.stepId !== 'string' || !isRecord(o.blocks)) return { error: `Override ${i + 1} needs a stepId and a blocks object.` };
  }
  return { overrides: value as ExperimentOverride[] };
}

/** Sets one copy field of a step in a list of overrides, merging into that step's override if there is one. */
export function withCopyChange(overrides: readonly ExperimentOverride[], stepId: string, field: string, value: string): ExperimentOverride[] {
  const at = overrides.findIndex((o) => o.stepId === stepId);
  if (at < 0) return [...overrides, { stepId, blocks: { [field]: value } }];
  return overrides.map((o, i) => (i === at ? { stepId, blocks: { ...o.blocks, [field]: value } } : o));
}

/** Sets (or, with an empty value, clears) a theme token in the `$flow` override. */
export function withThemeToken(overrides: readonly ExperimentOverride[], token: ThemeToken, value: string): ExperimentOverride[] {
  const at = overrides.findIndex((o) => o.stepId === FLOW_OVERRIDE_ID);
  const current = at >= 0 && isRecord(overrides[at].blocks.theme) ? overrides[at].blocks.theme : {};
  const theme: Record<string, unknown> = { ...current };
  if (value) theme[token] = value;
  else delete theme[token];
  const blocks = { ...(at >= 0 ? overrides[at].blocks : {}), theme };
  if (at < 0) return [...overrides, { stepId: FLOW_OVERRIDE_ID, blocks }];
  return overrides.map((o, i) => (i === at ? { stepId: FLOW_OVERRIDE_ID, blocks } : o));
}

/** The step an API error's `param` (`overrides.<i>.…`) is about, named by its id. */
export function overrideOfParam(param: string | undefined, overrides: readonly { stepId: string }[]): string | undefined {
  const m = param ? /^overrides\.(\d+)(?:\.|$)/.exec(param) : null;
  return m ? overrides[Number(m[1])]?.stepId : undefined;
}

/** The copy fields a presentation step's kind offers the copy picker. */
export function copyFields(step: FlowStepShape): string[] {
  switch (step.kind) {
    case 'landing':
      return ['headline', 'body', 'cta'];
    case 'quiz':
      return ['title', 'body', 'cta'];
    case 'outcome':
      return ['eligibleTitle', 'eligibleBody', 'disqualifiedTitle', 'disqualifiedBody', 'cta', 'disqualifiedCta'];
    default:
      return ['title'];
  }
}
