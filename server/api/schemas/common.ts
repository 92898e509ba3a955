import * as z from '@/server/lib/zod';

export const zDateTime = z.iso.datetime().meta({ description: 'ISO 8601 date-time (UTC)' });
export const zId = (what: string) => z.string().min(1).max(100).meta({ description: `${what} id` });
export const zLimit = (max: number, fallback: number) =>
  z.number().int().min(1).max(max).default(fallback).meta({ description: `Page size, 1 to ${max} (default ${fallback})` });
export const zStartingAfter = z
  .string()
  .min(1)
  .max(100)
  .meta({ description: 'Cursor: the id of the last item of the previous page' })
  .optional();

/** The spec's error envelope, shown in the OpenAPI document for every error response. */
export const ZErrorEnvelope = z
  .object({
    error: z.object({
      type: z.enum([
        'authentication_error',
        'permission_error',
        'not_found',
        'conflict',
        'rate_limit_error',
        'validation_error',
        'service_unavailable',
        'api_error',
      ]),
      code: z.string(),
      message: z.string(),
      param: z.string().optional(),
      details: z
        .array(z.object({ line: z.number().int().optional(), param: z.string().optional(), message: z.string() }))
        .optional()
        .meta({ description: 'Every problem found, when a request has several (e.g. each bad CSV row, by line)' }),
      resource_id: z.string().optional().meta({ description: 'On a 409 about an existing resource (a duplicate foreignOrderId), its id' }),
      request_id: z.string(),
    }),
  })
  .meta({ id: 'Error' });

/** Present only in an Idempotency-Key replay of a response whose secret was shown once and not kept. */
export const zReplayNote = z.string().optional().meta({ description: 'Why a once-shown secret is null: this is an Idempotency-Key replay' });
