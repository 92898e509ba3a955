import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZPharmacyVerification } from './verification.types';

export const verifyPharmacyMeta: OpenApiMeta<ProcedureMeta> = {
  scope: 'pharmacies.manage',
  successStatus: 201,
  openapi: {
    method: 'POST',
    path: '/pharmacies/{id}/verify',
    tags: ['pharmacies'],
    summary: 'Run the pharmacy protocol checks against an http pharmacy (answers at once with the run `running`; read it with GET)',
    description:
      "The service's worker runs the checks of `npm run cli -- pharmacy verify` against the connection's base URL, under the same URL rules as every call to a pharmacy, with the connection's secret and timeout: " +
      'signing both ways, one order per Idempotency-Key, lookup, cancel, the catalog feed, signed callbacks (the test order names this service as its callbackUrl), status names and response time. ' +
      'It sends one test order (`livemode: false`, a synthetic patient) and cancels it. Run it, and see it pass, before enabling the pharmacy for live orders.',
    errorResponses: { 400: 'Not an http pharmacy (`verify_requires_http`)', 404: 'No such connection in this tenant and mode' },
  },
};
export const ZVerifyPharmacyRequest = z.object({ id: zId('Pharmacy connection') });
export const ZVerifyPharmacyResponse = ZPharmacyVerification;
