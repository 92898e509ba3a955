import type { FlowStepShape } from '@/server/domain/flows/shared/shapes';
import { isClinical } from './flow-steps';
import type { DraftDocument } from './flow-types';

export interface StepPatch {
  stepId: string;
  blocks: Record<string, unknown>;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * When the only edits are the copy (blocks) of presentation steps, the save is sent as step patches: the
 * API then refuses anything that would touch the clinical plane, so a copy edit cannot change it by
 * accident. Any other edit (order, steps added or removed, questions, theme, clinical fields) needs the
 * whole document; null when that is the case. A field the person emptied is sent as null (cleared).
 */
export function copyPatches(saved: DraftDocument, draft: DraftDocument): StepPatch[] | null {
  if (saved.steps.length !== draft.steps.length || !same(saved.theme, draft.theme) || !same(saved.settings, draft.settings)) return null;
  const patches: StepPatch[] = [];
  for (let i = 0; i < draft.steps.length; i++) {
    const a: FlowStepShape = saved.steps[i];
    const b: FlowStepShape = draft.steps[i];
    if (a.id !== b.id || a.kind !== b.kind) return null;
    if (isClinical(a) || isClinical(b)) {
      if (!same(a, b)) return null;
      continue;
    }
    if (a.kind === 'quiz' && b.kind === 'quiz' && !same(a.questions, b.questions)) return null;
    if (!('blocks' in a) || !('blocks' in b) || same(a.blocks, b.blocks)) continue;
    const blocks: Record<string, unknown> = { ...b.blocks };
    for (const key of Object.keys(a.blocks)) if (!(key in b.blocks)) blocks[key] = null;
    patches.push({ stepId: b.id, blocks });
  }
  return patches;
}

/**
 * The document as PATCH takes it: the API shows the checkout secret only as its last four characters, and a
 * checkout sent without `secret` keeps the stored one.
 */
export function documentForSave(draft: DraftDocument) {
  const { checkout, ...settings } = draft.settings;
  return { ...draft, settings: checkout ? { ...settings, checkout: { storeUrl: checkout.storeUrl } } : settings };
}
