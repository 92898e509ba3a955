import * as z from '@/server/lib/zod';
import { zDateTime } from '@/server/api/schemas/common';
import { EARLIEST_DATE_OF_BIRTH, isPlausibleDateOfBirth, normalisePhone, SEXES } from '@/server/domain/patients/validation';
import { POSTAL_CODE } from '@/server/domain/patients/contact-details';
import { zUsState } from '@/server/lib/us-state-schema';

// Messages name the rule, never the value sent: every field here is PHI.
const zText = (description: string, max = 100) => z.string().trim().min(1).max(max).meta({ description });
const zName = (what: string) => zText(`${what}, 1 to 100 characters (surrounding spaces are trimmed)`);
const zDateOfBirth = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine(isPlausibleDateOfBirth, `must be a real date between ${EARLIEST_DATE_OF_BIRTH} and today`)
  .meta({ description: `Date of birth (YYYY-MM-DD); a real date, not before ${EARLIEST_DATE_OF_BIRTH} and not in the future`, format: 'date' });
const zSex = z.enum(SEXES).meta({ description: 'Sex assigned at birth as recorded for prescribing: female, male, intersex or unknown' });
// Stored and matched lower-cased (issue 49): one spelling per person.
const zEmail = z.personEmail().max(254).meta({ description: 'E-mail address' });
export const zPhone = z
  .string()
  .max(32)
  .refine((v) => normalisePhone(v) !== null, 'must be an E.164 number (+15551234567) or a 10-digit US number')
  .overwrite((v) => normalisePhone(v) ?? v)
  .meta({ description: 'Phone number: E.164 (+15551234567) or a 10-digit US number in any punctuation; stored and returned as E.164' });
const zList = (description: string) => z.array(z.string().trim().min(1).max(200)).max(50).meta({ description });
const zAllergies = zList('Known allergies, free text, up to 50 entries of up to 200 characters');
const zMedications = zList('Current medications, free text, up to 50 entries of up to 200 characters');

const zState = zUsState.meta({ description: 'Two-letter US state code, DC and PR included; case-insensitive, stored uppercase' });
export const zPostalCode = z
  .string()
  .trim()
  .regex(POSTAL_CODE, 'must be a ZIP code (12345 or 12345-6789)')
  .meta({ description: 'ZIP code: 12345 or ZIP+4 12345-6789' });

export const ZPatientAddressInput = z
  .strictObject({
    line1: zText('Street address', 200),
    line2: zText('Apartment, suite or unit', 200).nullable().optional(),
    city: zText('City'),
    state: zState,
    postalCode: zPostalCode,
    country: z.literal('US').default('US').meta({ description: "Country; only 'US' is supported" }),
  })
  .meta({ id: 'PatientAddressInput', description: 'US shipping address' });

export const ZPatientAddress = z
  .object({
    line1: z.string().meta({ description: 'Street address' }),
    line2: z.string().nullable().meta({ description: 'Apartment, suite or unit' }),
    city: z.string().meta({ description: 'City' }),
    state: z.string().meta({ description: 'Two-letter US state code (uppercase)' }),
    postalCode: z.string().meta({ description: 'ZIP or ZIP+4 code' }),
    country: z.literal('US').meta({ description: 'Country (always US)' }),
  })
  .meta({ id: 'PatientAddress', description: 'US shipping address' });

export const ZPatient = z
  .object({
    id: z.string().meta({ description: 'Patient id (pat_…)' }),
    object: z.literal('patient').meta({ description: "Always 'patient'" }),
    livemode: z.boolean().meta({ description: 'True for live-mode patients, false for sandbox' }),
    synthetic: z.boolean().meta({ description: 'True for fictitious test patients; every sandbox patient is synthetic, no live patient is' }),
    firstName: z.string().meta({ description: 'First name' }),
    lastName: z.string().meta({ description: 'Last name' }),
    dateOfBirth: z.string().meta({ description: 'Date of birth (YYYY-MM-DD)', format: 'date' }),
    sex: z.enum(SEXES).meta({ description: 'female, male, intersex or unknown' }),
    email: z.string().nullable().meta({ description: 'E-mail address, or null' }),
    phone: z.string().nullable().meta({ description: 'Phone number in E.164, or null' }),
    address: ZPatientAddress.nullable().meta({ description: 'Shipping address, or null' }),
    state: z.string().nullable().meta({ description: "State of residence (two-letter code): the address's state, else the one recorded without an address; null when unknown" }),
    allergies: z.array(z.string()).meta({ description: 'Known allergies' }),
    medications: z.array(z.string()).meta({ description: 'Current medications' }),
    createdAt: zDateTime,
    updatedAt: zDateTime,
  })
  .meta({ id: 'Patient', description: 'A patient record. PHI: returned only to authenticated calls, and every access is logged.' });

const required = ' Required unless the body is {"synthetic": true} alone.';
export const ZCreatePatient = z
  .strictObject({
    synthetic: z
      .boolean()
      .optional()
      .meta({
        description:
          'Sandbox only. Sandbox patients are always synthetic; {"synthetic": true} with no other field generates a realistic fictitious patient. true with a live key is a 400.',
      }),
    firstName: zName('First name').optional().meta({ description: `First name, 1 to 100 characters.${required}` }),
    lastName: zName('Last name').optional().meta({ description: `Last name, 1 to 100 characters.${required}` }),
    dateOfBirth: zDateOfBirth.optional().meta({ description: `Date of birth (YYYY-MM-DD), from ${EARLIEST_DATE_OF_BIRTH} to today.${required}` }),
    sex: zSex.optional().meta({ description: `female, male, intersex or unknown.${required}` }),
    email: zEmail.nullable().optional().meta({ description: 'E-mail address (optional)' }),
    phone: zPhone.nullable().optional().meta({ description: 'Phone number: E.164 (+15551234567) or a 10-digit US number; stored as E.164 (optional)' }),
    address: ZPatientAddressInput.nullable().optional().meta({ description: 'US shipping address; needed before an order can be routed' }),
    state: zState.optional().meta({ description: "State of residence when no address is given (an address's state wins)" }),
    allergies: zAllergies.optional().meta({ description: 'Known allergies (default [])' }),
    medications: zMedications.optional().meta({ description: 'Current medications (default [])' }),
  })
  .meta({ id: 'CreatePatient' });

export const ZUpdatePatient = z
  .strictObject({
    firstName: zName('First name').optional(),
    lastName: zName('Last name').optional(),
    dateOfBirth: zDateOfBirth.optional(),
    sex: zSex.optional(),
    email: zEmail.nullable().optional().meta({ description: 'E-mail address; null clears it' }),
    phone: zPhone.nullable().optional().meta({ description: 'Phone number (stored as E.164); null clears it' }),
    address: ZPatientAddressInput.nullable().optional().meta({ description: 'US shipping address, replaced whole (its state becomes the state of residence); null clears it' }),
    state: zState.optional().meta({ description: 'State of residence (an address sent in the same request wins)' }),
    allergies: zAllergies.optional().meta({ description: 'Known allergies; replaces the list' }),
    medications: zMedications.optional().meta({ description: 'Current medications; replaces the list' }),
  })
  .meta({ id: 'UpdatePatient', description: 'Send only the fields to change. synthetic is fixed at creation.' });

export const ZPatientAccessLogEntry = z
  .object({
    id: z.string().meta({ description: 'Entry id (pal_…)' }),
    patientId: z.string().meta({ description: 'The patient whose record was touched' }),
    action: z
      .enum(['create', 'read', 'list', 'update', 'intake_read', 'identity_resolve'])
      .meta({ description: "What was done: create, read (GET one), list (appeared in a list page), update, intake_read (the answers or person of an intake submission were read) or identity_resolve (a submission's identity mismatch was resolved for or against this record)" }),
    actorKind: z.enum(['key', 'user', 'patient']).meta({ description: "key for a machine API key, user for a signed-in person of the clinic, patient for the patient themself in the patient portal" }),
    actorId: z.string().meta({ description: "The API key id (key_…), user id (usr_…) or the patient's portal session (pss_…)" }),
    requestId: z.string().nullable().meta({ description: 'The request (req_…) that touched the record' }),
    at: zDateTime,
  })
  .meta({ id: 'PatientAccessLogEntry', description: 'One access to a patient record. Holds ids only, never PHI.' });
