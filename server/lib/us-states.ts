import * as z from './zod';

/** Two-letter codes of the states, DC and Puerto Rico: where providers are licensed and pharmacies ship. */
export const US_STATES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD',
  'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'PR', 'RI', 'SC',
  'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY',
] as const;
export type UsState = (typeof US_STATES)[number];

/** A state code, accepted in any letter case and stored upper case. */
export const zUsState = z
  .string()
  .trim()
  .toUpperCase()
  .pipe(z.enum(US_STATES, { error: 'must be a two-letter US state code (e.g. CA)' }))
  .meta({ description: 'Two-letter US state code', example: 'CA' });
