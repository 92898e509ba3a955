import type * as z from '@/server/lib/zod';
import { errors } from '@/server/lib/errors';
import { isClinicalStep, type FlowDocumentShape, type PresentationStepShape } from '@/server/domain/flows/shared/shapes';
import { ZLandingBlocks, ZOutcomeBlocks, ZQuizBlocks } from './flow-schema';

/** A change to the copy of one presentation step: PATCH /flows/{id} `stepPatches`, and experiment overrides. */
export interface StepPatch {
  stepId: string;
  /** Fields of the step's `blocks` to set; `null` clears an optional one. */
  blocks: Record<string, unknown>;
}

const BLOCKS: Record<PresentationStepShape['kind'], z.ZodType> = { landing: ZLandingBlocks, quiz: ZQuizBlocks, outcome: ZOutcomeBlocks };

/**
 * Applies `patches` to a copy of `doc`: each names a presentation step (landing, quiz, outcome) and the
 * block fields to change; the result of each is checked against that kind's blocks. A missing step or a
 * clinical one (medical, consent, contact: what a provider approved) is refused with 400 naming
 * `<prefix>.<i>.stepId`, and a bad field `<prefix>.<i>.blocks.<field>`. Nothing is changed on refusal.
 */
export function applyStepPatches<D extends FlowDocumentShape>(doc: D, patches: readonly StepPatch[], prefix = 'stepPatches'): D {
  const steps = doc.steps.map((s) => s);
  patches.forEach((patch, i) => {
    const at = steps.findIndex((s) => s.id === patch.stepId);
    const step = steps[at];
    if (!step) throw errors.validation(`Step '${safeId(patch.stepId)}' does not exist in this flow.`, `${prefix}.${i}.stepId`, 'unknown_step');
    if (isClinicalStep(step)) {
      throw errors.validation(
        `Step '${step.id}' is a ${step.kind} step of the clinical plane; only presentation steps (landing, quiz, outcome) can be patched.`,
        `${prefix}.${i}.stepId`,
        'clinical_step',
      );
    }
    const merged: Record<string, unknown> = { ...step.blocks };
    for (const [field, value] of Object.entries(patch.blocks)) {
      if (value === null) delete merged[field];
      else merged[field] = value;
    }
    const parsed = BLOCKS[step.kind].safeParse(merged);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue.path.length ? issue.path.join('.') : ((issue as { keys?: string[] }).keys?.[0] ?? '');
      const param = `${prefix}.${i}.blocks${field ? `.${field}` : ''}`;
      throw errors.validation(`${param}: ${issue.message} (step '${step.id}').`, param, 'invalid_flow');
    }
    steps[at] = { ...step, blocks: parsed.data } as PresentationStepShape;
  });
  return { ...doc, steps };
}

// A step id the flow does not have is the caller's text: echo it only when it has a step id's shape.
const safeId = (id: string) => (/^[A-Za-z0-9_$-]{1,64}$/.test(id) ? id : '…');
