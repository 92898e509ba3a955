import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { zId } from '@/server/api/schemas/common';
import { ZFlow } from '../flows/flow.types';
import { EXPERIMENTS_SCOPE, ZExperiment } from './experiment.types';

export const foldInExperimentMeta: OpenApiMeta<ProcedureMeta> = {
  scope: EXPERIMENTS_SCOPE,
  openapi: {
    method: 'POST',
    path: '/flows/experiments/{expId}/fold-in',
    tags: ['experiments'],
    summary: "Copy a stopped experiment's variant (its overrides) into the flow's draft, to be published normally (a presentation-only change publishes at once)",
    errorResponses: {
      403: 'Missing FLOWS_ANALYTICS_VIEW or flows.manage',
      404: 'No such experiment on this tenant in this mode',
      409: 'The experiment is still running (experiment_running), the flow is archived, or the draft changed so that the overrides no longer fit (draft_changed)',
    },
  },
};
export const ZFoldInExperimentRequest = z.strictObject({ expId: zId('Experiment') });
export const ZFoldInExperimentResponse = z.object({ experiment: ZExperiment, flow: ZFlow }).meta({ id: 'ExperimentFoldIn' });
