import * as z from '@/server/lib/zod';
import { EARLIEST_DATE_OF_BIRTH } from '@/server/domain/patients/validation';
import { zEmbedKey } from '@/server/api/routers/intake/public-intake.types';

export { zEmbedKey };

/** A date as YYYY-MM-DD; only its form is checked (a date no one has is simply not found). */
export const zSignInDateOfBirth = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .meta({ description: `Date of birth (YYYY-MM-DD), as on file with the clinic (${EARLIEST_DATE_OF_BIRTH} or later)`, format: 'date' });
export const zSignInEmail = z.personEmail().max(254).meta({ description: 'The e-mail address on file with the clinic (case does not matter)' });
export const zLoginCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'must be the 6 digits from the e-mail')
  .meta({ description: 'The 6-digit code from the sign-in e-mail' });

export const ZPatientSession = z
  .object({
    token: z.string().meta({ description: "The patient's session token (pt_…): send it as \"Authorization: Bearer <token>\" to /v1/patient/…" }),
    expiresAt: z.string().meta({ description: 'ISO 8601: when the session ends if it is not used; each use moves it 30 minutes on, up to 12 hours after sign-in' }),
  })
  .meta({ id: 'PatientSession' });

export const PORTAL_ERRORS = {
  403: 'Origin not allowed for this live key (origin_not_allowed)',
  429: 'Too many sign-in attempts from this address or for this e-mail; see Retry-After',
};
