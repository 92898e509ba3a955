import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { PORTAL_ERRORS, zEmbedKey } from './public-patients.types';

export const getPatientPortalMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'GET',
    path: '/public/patients/{embedKey}/portal',
    tags: ['patient portal'],
    protect: false,
    summary: "What a patient portal page shows before sign-in: the clinic's name and theme (no credential; origin-checked)",
    errorResponses: { ...PORTAL_ERRORS, 404: 'Unknown or revoked embed key' },
  },
};
export const ZGetPatientPortalRequest = z.object({ embedKey: zEmbedKey });
export const ZGetPatientPortalResponse = z
  .object({
    clinicName: z.string().meta({ description: "The clinic's name" }),
    livemode: z.boolean().meta({ description: 'False for a sandbox key: its portal signs in synthetic sandbox patients only' }),
    theme: z.object({
      cssVariables: z.record(z.string(), z.string()).meta({ description: "The theme of the key's published flow as CSS custom properties named --nl-flow-*; empty without one" }),
    }),
  })
  .meta({ id: 'PatientPortal' });
