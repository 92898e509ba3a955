import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';
import { SESSION_ERRORS, ZArm, ZOutcomeCopy, ZPublicFlow, ZRunVerdict, zEmbedKey, zSessionId } from './public-flow.types';

export const getFlowSessionMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'GET',
    path: '/public/flows/{embedKey}/sessions/{id}',
    tags: ['public flows'],
    protect: false,
    summary: 'Where a run stands, to resume it after a refresh: saved step ids, the next step and, for a while, its own answers',
    description:
      "The session id is the bearer secret of the run: it alone reads the run. While the session is open and its last saved step is under 30 minutes old, `answers` gives back what it saved, so a page reloaded or restored shows the earlier pages filled in and the contact step prefilled again; otherwise (submitted, expired, or idle 30 minutes) it is null. No other response carries answers.",
    errorResponses: SESSION_ERRORS,
  },
};
export const ZGetFlowSessionRequest = z.object({ embedKey: zEmbedKey, id: zSessionId });
export const ZGetFlowSessionResponse = z
  .object({
    sessionId: z.string(),
    versionId: z.string(),
    status: z.enum(['open', 'completed']),
    completedStepIds: z.array(z.string()).meta({ description: 'Steps saved so far, in step order' }),
    nextStepId: z.string().nullable().meta({ description: 'The first step not saved yet; null when ready to submit or completed' }),
    arm: ZArm,
    variantKey: z.string().nullable(),
    definition: ZPublicFlow,
    outcome: z.object({ verdict: ZRunVerdict, ...ZOutcomeCopy }).nullable().meta({ description: 'The outcome of a completed run, else null' }),
    answers: z
      .record(z.string(), z.record(z.string(), z.unknown()))
      .nullable()
      .meta({
        description:
          "This session's own saved answers by step id, each as the step takes them (PHI), while the session is open and its last save is under 30 minutes old; else null",
      }),
  })
  .meta({ id: 'FlowSessionState' });
