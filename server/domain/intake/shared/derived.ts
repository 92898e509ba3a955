/** The two derived values a condition may read: `age(<date item>)` and `bmi(<height item>, <weight item>)`. */

/** `inch → m`, `lb → kg` (exact definitions). */
const M_PER_IN = 0.0254;
const KG_PER_LB = 0.45359237;

/** Parses a validated YYYY-MM-DD into y*10000 + m*100 + d without allocating. */
export function dayNumber(date: string): number {
  let n = 0;
  for (let i = 0; i < 10; i++) {
    if (i === 4 || i === 7) continue;
    n = n * 10 + (date.charCodeAt(i) - 48);
  }
  return n;
}

/**
 * Whole years from `born` to `asOf`. A 29 February birthday falls on 1 March in common years (the person is
 * not a year older on 28 February). A birth date after `asOf` gives a negative age, so `age(...) < 18` still
 * matches a mistyped future date instead of letting it through.
 */
export function ageOn(born: number, asOf: number): number {
  const years = Math.floor(asOf / 10000) - Math.floor(born / 10000);
  return asOf % 10000 < born % 10000 ? years - 1 : years;
}

/** BMI (kg/m²) rounded to one decimal, as clinics chart it; undefined without two positive measures. */
export function bmiOf(height: number, heightUnit: string | undefined, weight: number, weightUnit: string | undefined): number | undefined {
  if (!(height > 0) || !(weight > 0)) return undefined;
  const m = heightUnit === 'cm' ? height / 100 : height * M_PER_IN;
  const kg = weightUnit === 'kg' ? weight : weight * KG_PER_LB;
  const bmi = kg / (m * m);
  return Number.isFinite(bmi) ? Math.round(bmi * 10) / 10 : undefined;
}
