import { AsyncLocalStorage } from 'node:async_hooks';
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Context } from './context';
import { toEnvelope } from './envelope';

export type ProcedureMeta = {
  /** Scope a credential must hold (DESIGN decision 2); with several, any one of them. */
  scope?: string | readonly string[];
  /** HTTP status of success; the OpenAPI document and the response both use it. */
  successStatus?: 200 | 201 | 202;
  /**
   * Another success status the procedure answers, with the same body, when it sets `ctx.state.status` (publishing
   * an unchanged questionnaire answers 200 with the existing version instead of 201); documented beside it.
   */
  alsoSuccess?: { status: 200 | 201; description: string };
  /** Mutations honour Idempotency-Key unless this is false (read-only POSTs such as the routing plan). */
  idempotent?: boolean;
  /** A mutation without an Idempotency-Key header is refused (400 `idempotency_key_required`): public submissions. */
  idempotencyRequired?: boolean;
  /** Also accept a `text/csv` body, handed to the procedure as this field of its input (catalog upload). */
  csvBodyField?: string;
  /**
   * The procedure reads the raw body itself (`ctx.state.rawBody`), whatever its content type or whether it
   * parses: a pharmacy callback must be kept and counted even when it is not JSON.
   */
  rawBody?: boolean;
  /** Input fields of a non-GET procedure that arrive in the query string (trpc-to-openapi reads only the body). */
  queryFields?: string[];
  /**
   * The response is a patient record (PHI): the idempotency store keeps only its id, and a replay reads it
   * again, a disclosure written to the access log.
   */
  returnsPatient?: boolean;
  /** Response fields holding a secret shown once: the idempotency store keeps them as null, with a note. */
  secretFields?: readonly string[];
  /**
   * The procedure talks to the outside world mid-request (a pharmacy, a webhook receiver), so it cannot
   * run inside the idempotency transaction; its Idempotency-Key claim is a lease instead.
   */
  externalEffects?: boolean;
};

/** What the console's tRPC client reads of a failure: the spec's envelope fields, as /v1 answers them. */
export interface ErrorData {
  type: string;
  code: string;
  param?: string;
  details?: unknown[];
  resource_id?: string;
  request_id: string;
  httpStatus: number;
}

/**
 * The request id of the /api/trpc request in hand. A failure tRPC meets before it makes the context (a body that
 * is not JSON, an unknown procedure) reaches the formatter without one; this keeps its `request_id` the header's.
 */
export const trpcRequestId = new AsyncLocalStorage<string>();

export const t = initTRPC
  .meta<OpenApiMeta<ProcedureMeta>>()
  .context<Context>()
  .create({
    // /v1 swaps in the envelope itself (server/http/app.ts); this gives /api/trpc the same fields in tRPC's shape.
    errorFormatter({ shape, error, ctx }) {
      const envelope = toEnvelope(error, ctx?.state.requestId ?? trpcRequestId.getStore() ?? '');
      const { message, ...fields } = envelope.body.error;
      const data: ErrorData = { ...fields, httpStatus: envelope.status };
      return { code: shape.code, message, data };
    },
  });
export const router = t.router;
export const middleware = t.middleware;
