import * as z from '@/server/lib/zod';
import { IDENTITY_FACTS, ITEM_TYPES, UNITS, ZCondition } from '@/server/domain/intake/questionnaire-schema';

// What patients' pages receive and send: wording and shapes only, never rule ids or disqualifier logic.
export const ZPatientQuestionnaire = z
  .object({
    key: z.string().meta({ description: 'Questionnaire key' }),
    title: z.string(),
    description: z.string().optional(),
    items: z.array(
      z.object({
        linkId: z.string().meta({ description: 'The item id answers are keyed by' }),
        text: z.string(),
        help: z.string().optional(),
        type: z.enum(ITEM_TYPES),
        required: z.boolean(),
        options: z
          .array(
            z.object({
              value: z.string(),
              label: z.string(),
              exclusive: z.boolean().optional().meta({ description: 'A "None of these" option of a multi_choice item: chosen with any other option the answer is refused (400)' }),
            }),
          )
          .optional(),
        min: z.number().optional(),
        max: z.number().optional(),
        unit: z.enum(UNITS).optional(),
        enableWhen: ZCondition.optional().meta({ description: 'When the item shows (a closed condition tree over earlier answers)' }),
        fact: z.enum(IDENTITY_FACTS).optional().meta({ description: 'The identity fact the answer gives (dateOfBirth, sexAtBirth, state): the patient details must agree with it' }),
      }),
    ),
  })
  .meta({ id: 'PatientQuestionnaire', description: 'The patient-safe view of an approved questionnaire: no rules, rule ids or protocol' });

export const ZPatientOutcome = {
  verdict: z.enum(['eligible', 'disqualified']).meta({ description: 'eligible: it goes to a provider for review; disqualified: it does not' }),
  message: z.string().meta({ description: 'What to tell the patient' }),
  patientMessages: z
    .array(z.string())
    .meta({ description: "The clinic's messages of the matched rules, written for the patient: a disqualified run's reason, an eligible run's review flags" }),
  reference: z.string().meta({ description: 'The short reference the patient can quote (e.g. 7KQ2-M9XD): not an id, no PHI; staff find the submission by it' }),
};

export const zAnswers = z
  .record(z.string().min(1).max(64), z.unknown())
  .meta({ description: 'Answers by item linkId (PHI: stored apart, never echoed, not even in errors)' });
export const zToken = z.string().min(1).max(100).meta({ description: 'The one-time token of the link (from the e-mailed /i/{token})' });
export const zEmbedKey = z.string().min(1).max(100).meta({ description: 'The embed key (emb_…), public by design' });
