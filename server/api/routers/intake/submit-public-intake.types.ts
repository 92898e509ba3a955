import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { EARLIEST_DATE_OF_BIRTH, isPlausibleDateOfBirth } from '@/server/domain/patients/validation';
import { zPhone, zPostalCode } from '@/server/api/routers/patients/patients.types';
import { zUsState } from '@/server/lib/us-state-schema';
import { zAnswers, zEmbedKey, ZPatientOutcome } from './public-intake.types';

export const submitPublicIntakeMeta: OpenApiMeta<ProcedureMeta> = {
  successStatus: 201,
  idempotencyRequired: true,
  openapi: {
    method: 'POST',
    path: '/public/intake/{embedKey}/submissions',
    // No credential: the embed key (or the hosted link's token) in the path is the whole authority.
    protect: false,
    tags: ['public intake'],
    summary: "A new or returning patient's answers to a questionnaire the embed key serves; Idempotency-Key required",
    description:
      'A live patient is matched by e-mail (ignoring case) within the clinic and mode, else created; in sandbox a synthetic patient is created and nothing sent about the person is kept.',
    errorResponses: {
      400: 'Missing Idempotency-Key, a bad patient field (param patient.<field>; smsConsent without a phone is phone_required) or an answer that does not fit its item (param answers.<linkId>); values are never echoed and nothing is written',
      403: 'Origin not allowed for this key (origin_not_allowed)',
      404: 'Unknown or revoked embed key, or a questionnaire the key does not serve',
      409: 'Idempotency-Key reused with another body, or in flight',
      422: 'Required questions unanswered (intake_incomplete)',
      429: 'Too many requests for this key from this address',
    },
  },
};

const zDateOfBirth = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date as YYYY-MM-DD')
  .refine(isPlausibleDateOfBirth, `must be a real date between ${EARLIEST_DATE_OF_BIRTH} and today`);

export const ZSubmitPublicIntakeRequest = z.strictObject({
  embedKey: zEmbedKey,
  questionnaireKey: z.string().min(1).max(64).meta({ description: 'Key of an approved questionnaire the embed key serves; its current version is used' }),
  patient: z
    .strictObject({
      name: z.string().trim().min(1).max(200).meta({ description: 'Full name; the last word is kept as the last name, the rest as the first name' }),
      email: z.personEmail().max(254).meta({ description: 'E-mail address; a live patient with this address (ignoring case) is matched instead of created' }),
      dateOfBirth: zDateOfBirth
        .optional()
        .meta({ description: "YYYY-MM-DD; when absent, the questionnaire's date-of-birth answer (fact: dateOfBirth, or the item its age() reads) is used; when both are given they must be equal (400 fact_mismatch otherwise)" }),
      state: zUsState.meta({ description: "Two-letter US state the patient lives in; must equal the questionnaire's state answer (fact: state) when it has one" }),
      phone: zPhone.optional().meta({ description: 'Phone number: E.164 (+15551234567) or a 10-digit US number; stored as E.164' }),
      smsConsent: z
        .boolean()
        .optional()
        .meta({ description: 'The patient agrees to text messages about their requests and orders at `phone` (needs `phone`: 400 phone_required otherwise). Recorded for a new patient, or a matched one whose phone on file is this one' }),
      address: z
        .strictObject({
          line1: z.string().trim().min(1).max(200).meta({ description: 'Street address' }),
          line2: z.string().trim().min(1).max(200).nullable().optional().meta({ description: 'Apartment, suite or unit' }),
          city: z.string().trim().min(1).max(100).meta({ description: 'City' }),
          postalCode: zPostalCode,
          state: zUsState.optional().meta({ description: 'May be left out: the address is in `state`; when sent it must equal it' }),
        })
        .optional()
        .meta({ description: 'Shipping address (US); its state is the patient’s state' }),
    })
    .meta({ description: 'Who is answering (PHI: stored on the patient record only, never echoed)' }),
  answers: zAnswers,
});
export const ZSubmitPublicIntakeResponse = z
  .object({
    submissionId: z.string().meta({ description: 'The submission (isub_…)' }),
    ...ZPatientOutcome,
    certificate: z
      .string()
      .nullable()
      .meta({ description: 'Compact EdDSA JWS of an eligible verdict (ids, hashes and the verdict only; verify with GET /certificates/jwks.json), else null' }),
    sandbox: z.boolean().meta({ description: 'True when made with a sandbox embed key (a synthetic patient)' }),
  })
  .meta({ id: 'PublicIntakeResult' });
