/**
 * The hosted flow's steps in the browser's history (DESIGN decision 44): an entry per step the patient moves
 * to, so the phone's own Back and Forward move between steps, and Back from the first entry leaves the page. An
 * entry holds the step's id, its depth among the flow's entries and the step of the entry below it: ids only,
 * never an answer. The URL stays the same; the entries live in the tab, so they survive a reload and a
 * discarded tab, and the page reads the one it opens on to resume on its step.
 */
export interface StepEntry {
  stepId: string;
  /** 0 for the flow's first entry in this tab, one more for each entry pushed above it. */
  depth: number;
  /** The step of the entry below (null at depth 0): "Back" to it is the browser's Back. */
  below: string | null;
}

// A field of its own: Next.js keeps its router state in the same object, which each entry keeps as it is (the
// page's first entry may be written before Next.js's own pushState, which would copy it, is in place).
const FIELD = 'fulfillmentrailStep';

/** The flow's entry in a history state (the current one by default), or null when it is none of ours. */
export function stepEntry(state: unknown = window.history.state): StepEntry | null {
  const entry = (state as Record<string, unknown> | null)?.[FIELD] as Partial<StepEntry> | undefined;
  if (!entry || typeof entry.stepId !== 'string' || !Number.isSafeInteger(entry.depth) || entry.depth! < 0) return null;
  return { stepId: entry.stepId, depth: entry.depth!, below: typeof entry.below === 'string' ? entry.below : null };
}

// A browser may refuse history calls made too often (Safari: about 100 in 30 s); the flow goes on without them.
function write(how: 'pushState' | 'replaceState', entry: StepEntry): StepEntry {
  try {
    window.history[how]({ ...(window.history.state as object | null), [FIELD]: entry }, '');
    return entry;
  } catch {
    // The step is shown anyway; only the browser's Back loses it.
    return stepEntry() ?? entry;
  }
}

/** A new entry for `stepId` above the current one (the forward entries, if any, are dropped, as a link does). */
export function pushStep(stepId: string): StepEntry {
  const at = stepEntry();
  return write('pushState', at ? { stepId, depth: at.depth + 1, below: at.stepId } : { stepId, depth: 0, below: null });
}

/** The current entry shows `stepId` now; its depth and the entry below stay. */
export function replaceStep(stepId: string): StepEntry {
  const at = stepEntry();
  return write('replaceState', { stepId, depth: at?.depth ?? 0, below: at?.below ?? null });
}

/** True when the entry below the current one is `stepId`: the browser's Back then shows it. */
export const belowIs = (stepId: string) => {
  const at = stepEntry();
  return Boolean(at && at.depth > 0 && at.below === stepId);
};
