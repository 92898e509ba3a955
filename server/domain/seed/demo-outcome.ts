/**
 * The demo flow's outcome button (issue 50): an eligible patient gets a working link while a provider reviews
 * the answers. The demo clinic has no site of its own and an outcome link must be an https page (flow-schema's
 * `clinicLink`), so it is a public page on the medicines its program prescribes (NIDDK, US National Institutes
 * of Health), which works from any install. Kept apart, with no imports, so the browser tests read the same copy.
 */
export const DEMO_OUTCOME_LINK = {
  cta: 'Read about weight-loss medicines',
  ctaUrl: 'https://www.niddk.nih.gov/health-information/weight-management/prescription-medications-treat-overweight-obesity',
} as const;
