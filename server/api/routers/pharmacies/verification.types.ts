import * as z from '@/server/lib/zod';
import { zDateTime } from '@/server/api/schemas/common';

const ZVerificationCheck = z
  .object({
    name: z.string().meta({ description: 'Stable check name, e.g. `order-idempotent`' }),
    title: z.string().meta({ description: 'The check in words' }),
    passed: z.boolean(),
    expected: z.string().meta({ description: 'What a pharmacy that keeps the contract does' }),
    seen: z.string().meta({ description: 'What this pharmacy did' }),
    ms: z.number().int().meta({ description: 'How long the check took' }),
  })
  .meta({ id: 'PharmacyVerificationCheck' });

export const ZPharmacyVerification = z
  .object({
    id: z.string().meta({ description: 'Run id (pvr_…)' }),
    object: z.literal('pharmacy_verification'),
    livemode: z.boolean(),
    pharmacyConnectionId: z.string().meta({ description: 'The connection checked (phc_…)' }),
    status: z.enum(['running', 'passed', 'failed']).meta({ description: '`running` until the worker has run every check; `passed` only when all passed' }),
    baseUrl: z.string().meta({ description: 'The base URL the run checked' }),
    checks: z.array(ZVerificationCheck).meta({ description: 'Every check, in the order run (empty while running)' }),
    callbacksReceived: z.number().int().meta({ description: "Status callbacks the pharmacy sent for the run's test order" }),
    requestedBy: z.string().nullable().meta({ description: 'The user or API key that started the run' }),
    createdAt: zDateTime,
    finishedAt: zDateTime.nullable().meta({ description: 'When the last check finished; null while running' }),
  })
  .meta({ id: 'PharmacyVerification', description: 'A run of the pharmacy protocol checks against an http pharmacy (docs/pharmacy-protocol.md)' });
