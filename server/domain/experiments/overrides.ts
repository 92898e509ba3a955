import * as z from '@/server/lib/zod';
import { errors } from '@/server/lib/errors';
import { FLOW_OVERRIDE_ID, isClinicalStep, type ExperimentOverrideShape, type FlowDocumentShape, type FlowStepShape } from '@/server/domain/flows/shared/shapes';
import { flowStructureProblems, ZThemeTokens, type FlowDocument } from '@/server/domain/flows/flow-schema';
import { applyStepPatches } from '@/server/domain/flows/step-patches';

/**
 * An experiment's variant (DESIGN decision 27) is the control's document with its overrides applied: copy
 * patches of presentation steps (the same rules as PATCH /flows/{id} `stepPatches`), and at most one `$flow`
 * override with theme tokens and a new order of the presentation steps. Clinical steps (medical, consent,
 * contact) are never touched and keep their positions, so both arms share one clinical plane.
 */

const ZFlowOverrideBlocks = z.strictObject({
  // `null` clears a token the control sets (the hosted page then falls back to its default).
  theme: z.record(z.string(), z.union([z.string(), z.null()])).optional(),
  order: z.array(z.string().max(64)).max(100).optional(),
});

const fail = (message: string, param: string, code = 'invalid_override') => errors.validation(message, param, code);

function themed(doc: FlowDocumentShape, theme: Record<string, string | null>, at: string): FlowDocumentShape['theme'] {
  const merged: Record<string, string> = { ...doc.theme.tokens };
  for (const [token, value] of Object.entries(theme)) {
    if (value === null) delete merged[token];
    else merged[token] = value;
  }
  const parsed = ZThemeTokens.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const token = issue.path[0] !== undefined ? String(issue.path[0]) : ((issue as { keys?: string[] }).keys?.[0] ?? '');
    const param = `${at}.blocks.theme${token ? `.${token}` : ''}`;
    throw fail(`${param}: ${issue.message}`, param);
  }
  return { tokens: parsed.data };
}

/** The presentation steps in `order`, put into the positions presentation steps hold; clinical steps stay where they are. */
function reordered(steps: FlowStepShape[], order: string[], at: string): FlowStepShape[] {
  const param = `${at}.blocks.order`;
  const presentation = steps.filter((s) => !isClinicalStep(s));
  const byId = new Map(presentation.map((s) => [s.id, s]));
  const seen = new Set<string>();
  for (const id of order) {
    const step = steps.find((s) => s.id === id);
    if (step && isClinicalStep(step)) throw fail(`Step '${id}' is a ${step.kind} step of the clinical plane; its position cannot change.`, param, 'clinical_step');
    if (!byId.has(id)) throw fail(`order names a step this flow does not have.`, param, 'unknown_step');
    if (seen.has(id)) throw fail(`order names step '${id}' twice.`, param);
    seen.add(id);
  }
  if (seen.size !== presentation.length) {
    const missing = presentation.find((s) => !seen.has(s.id))!;
    throw fail(`order must list every presentation step once; '${missing.id}' is missing.`, param);
  }
  const queue = order.map((id) => byId.get(id)!);
  return steps.map((s) => (isClinicalStep(s) ? s : queue.shift()!));
}

function applyFlowOverride(doc: FlowDocumentShape, blocks: unknown, at: string): FlowDocumentShape {
  const parsed = ZFlowOverrideBlocks.safeParse(blocks);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.length ? issue.path.join('.') : ((issue as { keys?: string[] }).keys?.[0] ?? '');
    const param = `${at}.blocks${field ? `.${field}` : ''}`;
    throw fail(`${param}: ${issue.message} ($flow takes theme and order only).`, param);
  }
  let out = doc;
  if (parsed.data.theme) out = { ...out, theme: themed(out, parsed.data.theme, at) };
  if (parsed.data.order) {
    out = { ...out, steps: reordered(out.steps, parsed.data.order, at) };
    const problem = flowStructureProblems(out as FlowDocument)[0];
    if (problem) throw fail(`This order breaks the flow: ${problem.message}`, `${at}.blocks.order`);
  }
  return out;
}

/**
 * The variant's document: `overrides` applied to a copy of `doc`, in order. Refusals are 400 naming
 * `<prefix>.<i>.…`: a missing step (`unknown_step`), a clinical one (`clinical_step`), a bad block, token or
 * order, or a second override of the same step. `doc` itself is never changed.
 */
export function applyOverrides<D extends FlowDocumentShape>(doc: D, overrides: readonly ExperimentOverrideShape[], prefix = 'overrides'): D {
  const seen = new Map<string, number>();
  overrides.forEach((o, i) => {
    const first = seen.get(o.stepId);
    if (first !== undefined) throw fail(`Overrides ${first} and ${i} both change step '${o.stepId.slice(0, 64)}'; merge them into one.`, `${prefix}.${i}.stepId`, 'duplicate_override');
    seen.set(o.stepId, i);
  });
  // Step patches keep their index in `overrides` (so the param names the right entry): a `$flow` entry is
  // swapped for an empty patch of a presentation step, which changes nothing and always passes.
  const anchor = doc.steps.find((s) => !isClinicalStep(s));
  const patches = overrides.filter((o) => o.stepId !== FLOW_OVERRIDE_ID);
  let out: D = doc;
  if (patches.length && !anchor) {
    // No presentation step at all: the first step patch names a clinical step or none.
    const i = overrides.findIndex((o) => o.stepId !== FLOW_OVERRIDE_ID);
    const step = doc.steps.find((s) => s.id === overrides[i].stepId);
    if (step) throw fail(`Step '${step.id}' is a ${step.kind} step of the clinical plane; only presentation steps can be overridden.`, `${prefix}.${i}.stepId`, 'clinical_step');
    throw fail('This step does not exist in this flow.', `${prefix}.${i}.stepId`, 'unknown_step');
  }
  if (patches.length) {
    out = applyStepPatches(
      doc,
      overrides.map((o) => (o.stepId === FLOW_OVERRIDE_ID ? { stepId: anchor!.id, blocks: {} } : o)),
      prefix,
    );
  }
  overrides.forEach((o, i) => {
    if (o.stepId === FLOW_OVERRIDE_ID) out = applyFlowOverride(out, o.blocks, `${prefix}.${i}`) as D;
  });
  return out;
}
