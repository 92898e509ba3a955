import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId, zLimit, zStartingAfter } from '@/server/api/schemas/common';
import { EXPERIMENTS_SCOPE, ZExperiment } from './experiment.types';

export const listExperimentsMeta: OpenApiMeta<ProcedureMeta> = {
  scope: EXPERIMENTS_SCOPE,
  openapi: {
    method: 'GET',
    path: '/flows/{id}/experiments',
    tags: ['experiments'],
    summary: "A flow's experiments, newest first, with live results per arm and their analysis (SRM check, chance to beat control, expected loss, uplift interval)",
    errorResponses: { 400: 'Bad page size or cursor', 403: 'Missing FLOWS_ANALYTICS_VIEW', 404: 'No such flow on this tenant in this mode' },
  },
};
export const ZListExperimentsRequest = z.object({ id: zId('Flow'), limit: zLimit(100, 100), starting_after: zStartingAfter });
export const ZListExperimentsResponse = z.array(ZExperiment);
