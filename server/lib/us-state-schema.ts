import * as z from './zod';
import { US_STATES } from './us-states';

// Apart from the list itself, which the patient's browser loads (the contact form): zod stays out of that bundle.
/** A state code, accepted in any letter case and stored upper case. */
export const zUsState = z
  .string()
  .trim()
  .toUpperCase()
  .pipe(z.enum(US_STATES, { error: 'must be a two-letter US state code (e.g. CA)' }))
  .meta({ description: 'Two-letter US state code', example: 'CA' });
