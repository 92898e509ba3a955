/**
 * The statistics behind experiment results (DESIGN decision 27), written here because no maintained
 * statistics package is installed: special functions (log-gamma, regularized incomplete gamma), the
 * chi-square test of the sample ratio, the Beta-Binomial comparison of two qualify rates in closed form, and
 * the delta-method interval of the relative uplift. Pure functions of counts.
 */

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012,
  9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (Lanczos, g = 7, n = 9: about 15 significant digits). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0];
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i] / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** ln B(a, b). */
export const logBeta = (a: number, b: number) => logGamma(a) + logGamma(b) - logGamma(a + b);

const EPS = 1e-15;
const TINY = 1e-300;

/** Q(a, x) = Γ(a, x) / Γ(a), the upper regularized incomplete gamma function (series below a + 1, Lentz's continued fraction above). */
export function upperRegularizedGamma(a: number, x: number): number {
  if (x <= 0) return 1;
  const lead = -x + a * Math.log(x) - logGamma(a);
  if (x < a + 1) {
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 10_000; n++) {
      term *= x / (a + n);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * EPS) break;
    }
    return Math.max(0, 1 - sum * Math.exp(lead));
  }
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 10_000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return Math.exp(lead) * h;
}

/** P(X ≥ x) for X ~ χ² with `df` degrees of freedom. */
export const chiSquareSurvival = (x: number, df: number) => upperRegularizedGamma(df / 2, x / 2);

/**
 * Sample-ratio mismatch: the chi-square goodness-of-fit p-value of the observed arm sizes against the
 * configured split (df = 1). Null without sessions. An arm the split gives nothing to must stay empty: any
 * session there is a certain mismatch (p = 0).
 */
export function srmPValue(control: number, variant: number, variantShare: number): number | null {
  const total = control + variant;
  if (total === 0) return null;
  const expected = [total * (1 - variantShare), total * variantShare];
  const observed = [control, variant];
  let chi = 0;
  for (let i = 0; i < 2; i++) {
    if (expected[i] === 0) {
      if (observed[i] > 0) return 0;
      continue;
    }
    chi += (observed[i] - expected[i]) ** 2 / expected[i];
  }
  return chiSquareSurvival(chi, 1);
}

/** A Beta posterior: successes + 1 and failures + 1 under a Beta(1, 1) prior. */
export interface BetaParams {
  alpha: number;
  beta: number;
}

export const posterior = (conversions: number, trials: number): BetaParams => ({ alpha: conversions + 1, beta: trials - conversions + 1 });

// Above this many terms the exact sum is replaced by the normal approximation, which is then excellent.
const MAX_TERMS = 200_000;

/**
 * P(Y > X) for independent X ~ Beta(x), Y ~ Beta(y) with integer α of Y (Evan Miller, "Formulas for Bayesian
 * A/B testing"): Σ_{i<αY} B(αX+i, βX+βY) / ((βY+i) B(1+i, βY) B(αX, βX)), summed in logs.
 */
function probGreaterExact(x: BetaParams, y: BetaParams): number {
  let total = 0;
  const base = logBeta(x.alpha, x.beta);
  for (let i = 0; i < y.alpha; i++) {
    total += Math.exp(logBeta(x.alpha + i, x.beta + y.beta) - Math.log(y.beta + i) - logBeta(1 + i, y.beta) - base);
  }
  return total;
}

const mean = (p: BetaParams) => p.alpha / (p.alpha + p.beta);
const variance = (p: BetaParams) => (p.alpha * p.beta) / ((p.alpha + p.beta) ** 2 * (p.alpha + p.beta + 1));

/** Standard normal CDF (erfc through the incomplete gamma function: erfc(z) = Q(1/2, z²)). */
export function normalCdf(z: number): number {
  const tail = 0.5 * upperRegularizedGamma(0.5, (z * z) / 2);
  return z >= 0 ? 1 - tail : tail;
}

/** P(Y > X) for independent Beta variables with integer α (both posteriors here have them). */
export function probGreater(x: BetaParams, y: BetaParams): number {
  // The sum runs over α of one side; P(Y > X) = 1 − P(X > Y) lets it run over the smaller one.
  const terms = Math.min(x.alpha, y.alpha);
  if (terms > MAX_TERMS) return normalCdf((mean(y) - mean(x)) / Math.sqrt(variance(x) + variance(y)));
  const p = y.alpha <= x.alpha ? probGreaterExact(x, y) : 1 - probGreaterExact(y, x);
  return Math.min(1, Math.max(0, p));
}

/**
 * Expected loss of shipping Y instead of X, E[max(X − Y, 0)] (Chris Stucchio's closed form):
 * E[X·1{X>Y}] − E[Y·1{X>Y}] = mean(X)·P(X' > Y) − mean(Y)·P(X > Y'), X' ~ Beta(αX+1, βX), Y' ~ Beta(αY+1, βY).
 */
export function expectedLoss(x: BetaParams, y: BetaParams): number {
  const shiftedX = { alpha: x.alpha + 1, beta: x.beta };
  const shiftedY = { alpha: y.alpha + 1, beta: y.beta };
  const loss = mean(x) * probGreater(y, shiftedX) - mean(y) * probGreater(shiftedY, x);
  return Math.max(0, loss);
}

/** z of a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/**
 * Relative uplift of the variant's rate over the control's, (pV / pC) − 1, with a 95% interval from the delta
 * method on the log of the ratio: Var(ln pV/pC) ≈ (1 − pV)/(nV·pV) + (1 − pC)/(nC·pC). Null while either rate is 0
 * (the ratio or its logarithm is undefined).
 */
export function relativeUplift(control: { conversions: number; trials: number }, variant: { conversions: number; trials: number }) {
  if (control.conversions === 0 || variant.conversions === 0) return null;
  const pc = control.conversions / control.trials;
  const pv = variant.conversions / variant.trials;
  const logRatio = Math.log(pv / pc);
  const se = Math.sqrt((1 - pv) / (variant.trials * pv) + (1 - pc) / (control.trials * pc));
  return { estimate: pv / pc - 1, lower: Math.exp(logRatio - Z95 * se) - 1, upper: Math.exp(logRatio + Z95 * se) - 1 };
}
