/*
 * The funnel's rows (issue 50 item 5): per step, how many reached it, how many completed it, and so how many
 * dropped off there. No React: the chart, its table and the unit test read the same rows.
 */

export interface FunnelStats {
  views: number;
  qualified: number;
  disqualified: number;
  byStep: readonly { stepId: string; reached: number; completes: number }[];
}

/** What the funnel needs of a step: its kind and heading, when the flow's version is known. */
export interface FunnelStep {
  kind: string;
  heading: string;
}

export interface FunnelRow {
  stepId: string;
  label: string;
  reached: number;
  completed: number;
  /** Reached and not completed: where patients left. */
  dropped: number;
  /** `dropped` of `reached`, as "25%"; "—" when nobody reached the step. */
  dropRate: string;
}

/**
 * One row per step in step order, named by its heading when the version is known (its id otherwise). The
 * outcome page is completed by the submit (DESIGN decision 34), so its row says so.
 */
export function funnelRows(stats: FunnelStats, steps?: ReadonlyMap<string, FunnelStep>): FunnelRow[] {
  return stats.byStep.map((s) => {
    const step = steps?.get(s.stepId);
    const label = step?.kind === 'outcome' ? `Submitted: ${step.heading}` : (step?.heading ?? s.stepId);
    const dropped = Math.max(0, s.reached - s.completes);
    return { stepId: s.stepId, label, reached: s.reached, completed: s.completes, dropped, dropRate: s.reached > 0 ? `${Math.round((dropped / s.reached) * 100)}%` : '—' };
  });
}

/** The step most patients leave at (the largest drop-off, first on a tie); undefined when nobody left anywhere. */
export function biggestDrop(rows: readonly FunnelRow[]): FunnelRow | undefined {
  return rows.reduce<FunnelRow | undefined>((worst, r) => (r.dropped > (worst?.dropped ?? 0) ? r : worst), undefined);
}
