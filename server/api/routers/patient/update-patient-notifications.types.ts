import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { PATIENT_ERRORS, ZPatientNotifications } from './patient.types';

export const updatePatientNotificationsMeta: OpenApiMeta<ProcedureMeta> = {
  idempotent: false,
  openapi: {
    method: 'PATCH',
    path: '/patient/me/notifications',
    tags: ['patient portal'],
    summary: 'The signed-in patient turns notices by e-mail or text on or off, honoured from the next message',
    errorResponses: {
      ...PATIENT_ERRORS,
      400: 'Neither email nor sms sent, or not a boolean',
      409: 'sms_consent_required: texts can be turned on only with a phone given with consent to texts; nothing changed',
    },
  },
};
export const ZUpdatePatientNotificationsRequest = z
  .strictObject({
    email: z.boolean().optional().meta({ description: 'Notices by e-mail' }),
    sms: z.boolean().optional().meta({ description: 'Notices by text message (true needs a phone given with consent to texts)' }),
  })
  .refine((v) => v.email !== undefined || v.sms !== undefined, { message: 'Send email, sms or both (true or false).' });
export const ZUpdatePatientNotificationsResponse = ZPatientNotifications;
