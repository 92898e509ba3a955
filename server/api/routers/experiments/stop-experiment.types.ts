import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { EXPERIMENTS_SCOPE } from './experiment.types';

export const stopExperimentMeta: OpenApiMeta<ProcedureMeta> = {
  scope: EXPERIMENTS_SCOPE,
  openapi: {
    method: 'POST',
    path: '/flows/experiments/{expId}/stop',
    tags: ['experiments'],
    summary: 'Stop an experiment: new sessions get the control (sessions already assigned keep their arm); winnerVariant is recorded and promotes nothing. Stopping twice changes nothing.',
    errorResponses: { 400: 'A bad winnerVariant', 403: 'Missing FLOWS_ANALYTICS_VIEW or flows.manage', 404: 'No such experiment on this tenant in this mode' },
  },
};
export const ZStopExperimentRequest = z.strictObject({
  expId: zId('Experiment'),
  winnerVariant: z.enum(['control', 'variant']).optional().meta({ description: 'The arm the team judged the winner' }),
});
export const ZStopExperimentResponse = z.object({ ok: z.boolean() });
