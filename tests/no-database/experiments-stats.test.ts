import { describe, expect, it } from 'vitest';
import { analyse } from '@/server/domain/experiments/results';
import { chiSquareSurvival, expectedLoss, logGamma, normalCdf, posterior, probGreater, relativeUplift, srmPValue } from '@/server/domain/experiments/stats';

/*
 * The statistics of experiment results (DESIGN decision 27) against values known independently: chi-square
 * table values, closed-form Beta comparisons, and numbers computed with SciPy (numerical integration of the
 * Beta densities, scipy.stats.chisquare) written here as constants.
 */

describe('special functions', () => {
  it('log-gamma matches known values', () => {
    expect(logGamma(1)).toBeCloseTo(0, 12);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 12);
    expect(logGamma(11)).toBeCloseTo(Math.log(3628800), 10);
    expect(logGamma(100.5)).toBeCloseTo(361.4355404677776, 9);
    expect(logGamma(1e6) / 12815504.569147611).toBeCloseTo(1, 12);
  });

  it('chi-square survival at the table critical values (df 1): 3.841 → 0.05, 6.635 → 0.01, 10.828 → 0.001', () => {
    expect(chiSquareSurvival(3.841458820694124, 1)).toBeCloseTo(0.05, 10);
    expect(chiSquareSurvival(6.634896601021214, 1)).toBeCloseTo(0.01, 10);
    expect(chiSquareSurvival(10.827566170662733, 1)).toBeCloseTo(0.001, 10);
    expect(chiSquareSurvival(5.991464547107979, 2)).toBeCloseTo(0.05, 10);
    expect(chiSquareSurvival(0, 1)).toBe(1);
  });

  it('the normal CDF', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 12);
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 10);
    expect(normalCdf(-1.6448536269514722)).toBeCloseTo(0.05, 10);
  });
});

describe('sample-ratio mismatch', () => {
  it('is the chi-square p-value against the configured split (SciPy values)', () => {
    // scipy.stats.chisquare([7100, 2900], [7000, 3000]).pvalue
    expect(srmPValue(7100, 2900, 0.3)).toBeCloseTo(0.029096331741252267, 10);
    // chisquare([740, 260], [700, 300]).pvalue
    expect(srmPValue(740, 260, 0.3)).toBeCloseTo(0.005775498089305212, 10);
    expect(srmPValue(7000, 3000, 0.3)).toBeCloseTo(1, 12);
  });

  it('no sessions → null; an arm the split leaves empty must stay empty', () => {
    expect(srmPValue(0, 0, 0.5)).toBeNull();
    expect(srmPValue(100, 0, 0)).toBeCloseTo(1, 12);
    expect(srmPValue(99, 1, 0)).toBe(0);
  });
});

describe('Bayesian comparison (Beta-Binomial)', () => {
  it('closed-form cases: equal posteriors → 1/2, Beta(2,1) over Beta(1,1) → 2/3, and the expected loss of two uniforms is 1/6', () => {
    expect(probGreater({ alpha: 1, beta: 1 }, { alpha: 1, beta: 1 })).toBeCloseTo(0.5, 12);
    expect(probGreater({ alpha: 1, beta: 1 }, { alpha: 2, beta: 1 })).toBeCloseTo(2 / 3, 12);
    expect(probGreater({ alpha: 2, beta: 1 }, { alpha: 1, beta: 1 })).toBeCloseTo(1 / 3, 12);
    expect(probGreater(posterior(40, 200), posterior(40, 200))).toBeCloseTo(0.5, 10);
    expect(expectedLoss({ alpha: 1, beta: 1 }, { alpha: 1, beta: 1 })).toBeCloseTo(1 / 6, 12);
  });

  it('30/200 vs 45/200: chance to beat control and expected losses as numerical integration gives them', () => {
    const control = posterior(30, 200);
    const variant = posterior(45, 200);
    expect(control).toEqual({ alpha: 31, beta: 171 });
    // ∫ f_B(x) F_A(x) dx, scipy.integrate.quad
    expect(probGreater(control, variant)).toBeCloseTo(0.9722157101782725, 9);
    // E[max(A − B, 0)] and E[max(B − A, 0)], scipy.integrate.dblquad
    expect(expectedLoss(control, variant)).toBeCloseTo(0.0004166191337692315, 9);
    expect(expectedLoss(variant, control)).toBeCloseTo(0.07467404494570415, 9);
  });

  it('large arms: the exact sum (1,201 terms) and the normal approximation beyond 200,000', () => {
    expect(probGreater(posterior(1200, 10_000), posterior(1290, 10_000))).toBeCloseTo(0.9730338144349219, 8);
    expect(probGreater(posterior(300_000, 1_000_000), posterior(301_000, 1_000_000))).toBeCloseTo(0.9384996121585686, 6);
  });
});

describe('relative uplift', () => {
  it('30/200 → 45/200 is +50%, 95% interval from the delta method on the log ratio', () => {
    const u = relativeUplift({ conversions: 30, trials: 200 }, { conversions: 45, trials: 200 })!;
    expect(u.estimate).toBeCloseTo(0.5, 12);
    expect(u.lower).toBeCloseTo(-0.012782259057898093, 9);
    expect(u.upper).toBeCloseTo(1.2791324615508075, 9);
  });

  it('undefined while an arm has no qualified session', () => {
    expect(relativeUplift({ conversions: 0, trials: 10 }, { conversions: 3, trials: 10 })).toBeNull();
    expect(relativeUplift({ conversions: 3, trials: 10 }, { conversions: 0, trials: 10 })).toBeNull();
  });
});

describe('analysis of two arms', () => {
  it('no data: SRM passes (nothing to test), a coin flip, no uplift, not enough data', () => {
    const none = { sessions: 0, qualified: 0, qualifyRate: 0 };
    expect(analyse(none, none, 3000)).toEqual({
      srmPValue: null,
      srmPassed: true,
      chanceToBeatControl: expect.closeTo(0.5, 12),
      expectedLoss: { control: expect.closeTo(1 / 6, 12), variant: expect.closeTo(1 / 6, 12) },
      relativeUplift: null,
      enoughData: false,
      minSessionsPerArm: 150,
    });
  });

  it('enough data from 150 sessions per arm; a lopsided split fails the SRM check', () => {
    const arm = (sessions: number, qualified: number) => ({ sessions, qualified, qualifyRate: qualified / sessions });
    const ok = analyse(arm(150, 30), arm(150, 45), 5000);
    expect(ok).toMatchObject({ srmPValue: 1, srmPassed: true, enoughData: true });
    expect(ok.chanceToBeatControl).toBeGreaterThan(0.95);
    expect(analyse(arm(149, 30), arm(500, 45), 5000)).toMatchObject({ srmPassed: false, enoughData: false });
    // 740 / 260 against 70 / 30: p ≈ 0.0058, suspicious but above GrowthBook's 0.001 threshold.
    expect(analyse(arm(740, 10), arm(260, 10), 3000)).toMatchObject({ srmPValue: expect.closeTo(0.005775498089305212, 10), srmPassed: true });
  });
});
