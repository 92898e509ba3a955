import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Context } from './context';

export type ProcedureMeta = {
  /** Scope a credential must hold (DESIGN decision 2). */
  scope?: string;
  /** HTTP status of success; the OpenAPI document and the response both use it. */
  successStatus?: 200 | 201;
  /** Mutations honour Idempotency-Key unless this is false (read-only POSTs such as the routing plan). */
  idempotent?: boolean;
};

export const t = initTRPC.meta<OpenApiMeta<ProcedureMeta>>().context<Context>().create();
export const router = t.router;
export const middleware = t.middleware;
