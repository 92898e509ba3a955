import type { Experiment, ExperimentAnalysis } from './experiment-types';

/** The analysis in plain words, as a growth analyst reads a GrowthBook result (no React: unit-tested). */

/** A probability as a whole percent that never claims certainty: 0.9996 is ">99%", not "100%". */
export function chancePercent(p: number): string {
  if (p > 0.995) return '>99%';
  if (p < 0.005) return '<1%';
  return `${Math.round(p * 100)}%`;
}

/** An absolute rate difference (0–1) in percentage points, one decimal. */
export const points = (loss: number) => `${(loss * 100).toFixed(1)} pp`;

/** A rate as a percent with one decimal. */
export const ratePercent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}%`;

const pText = (p: number) => (p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`);

/** The SRM check's sentence: passed, failed, or not yet possible. */
export function srmText(a: ExperimentAnalysis): string {
  if (a.srmPValue === null) return 'SRM check not run yet (no sessions)';
  return a.srmPassed ? `SRM check passed (${pText(a.srmPValue)})` : `SRM check failed (${pText(a.srmPValue)})`;
}

/** One sentence: chance to win, the risk of shipping the variant, and the SRM check. */
export function analysisSentence(a: ExperimentAnalysis): string {
  return `The variant is ${chancePercent(a.chanceToBeatControl)} likely to beat control; expected loss ${points(a.expectedLoss.variant)}; ${srmText(a)}.`;
}

/** The uplift and its interval, or why there is none yet. */
export function upliftText(a: ExperimentAnalysis): string {
  if (!a.relativeUplift) return 'Relative uplift: not yet estimable (an arm has no qualified session).';
  const u = a.relativeUplift;
  return `Relative uplift ${signed(u.estimate)} (95% interval ${signed(u.lower)} to ${signed(u.upper)}).`;
}

export interface ExperimentWarning {
  kind: 'srm' | 'data';
  text: string;
}

/**
 * What must be said before anyone acts on the numbers: a failed SRM check (assignment or counting is broken,
 * so the comparison is void) and too little data (the chance to win swings while the arms are small).
 */
export function experimentWarnings(e: Pick<Experiment, 'analysis' | 'results' | 'splitPct'>): ExperimentWarning[] {
  const out: ExperimentWarning[] = [];
  const { control, variant } = e.results;
  if (!e.analysis.srmPassed) {
    out.push({
      kind: 'srm',
      text: `Sample ratio mismatch: control has ${control.sessions} and the variant ${variant.sessions} sessions against a configured ${100 - e.splitPct}/${e.splitPct} split (${e.analysis.srmPValue === null ? 'no p-value' : pText(e.analysis.srmPValue)}). Assignment or counting is broken; do not act on these results.`,
    });
  }
  if (!e.analysis.enoughData) {
    const min = e.analysis.minSessionsPerArm;
    out.push({
      kind: 'data',
      text: `Too little data to decide: each arm needs at least ${min} sessions (control has ${control.sessions}, the variant ${variant.sessions}). The chance to win moves a lot until then.`,
    });
  }
  return out;
}

/** Which arm the numbers favour, for the stop form's default (control unless the variant is likely better). */
export const suggestedWinner = (a: ExperimentAnalysis): 'control' | 'variant' => (a.chanceToBeatControl >= 0.95 && a.enoughData && a.srmPassed ? 'variant' : 'control');
