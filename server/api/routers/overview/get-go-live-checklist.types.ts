import * as z from '@/server/lib/zod';
import type { ProcedureMeta } from '@/server/api/trpc';
import { GO_LIVE_STATUSES, GO_LIVE_STEP_IDS } from '@/server/domain/overview/go-live';

/**
 * The console's "Go live" checklist (tRPC only): what a clinic's admin sets up in the current mode before
 * patients reach a hosted page. Admins and owners (flows.manage) read it; a provider or developer has no step
 * of it to do.
 */
export const consoleGoLiveMeta: ProcedureMeta = { scope: 'flows.manage' };
export const ZConsoleGoLiveRequest = z.object({}).optional();

const ZGoLiveStep = z.object({
  id: z.enum(GO_LIVE_STEP_IDS),
  done: z.boolean(),
  status: z.enum(GO_LIVE_STATUSES).meta({ description: 'done, or why the step is not done yet' }),
  href: z.string().meta({ description: 'The console page where the step is done' }),
  subject: z.object({ id: z.string(), name: z.string() }).nullable().meta({ description: 'The pharmacy, protocol, questionnaire, flow or key the step names' }),
  count: z.number().int().min(0),
  detail: z.string().nullable().meta({ description: "The pharmacy's adapter, the routing strategy, `key vN`, the flow's version number, or the flow a key serves" }),
});

export const ZConsoleGoLiveResponse = z.object({
  object: z.literal('go_live_checklist'),
  mode: z.enum(['sandbox', 'live']),
  complete: z.boolean(),
  next: z.enum(GO_LIVE_STEP_IDS).nullable().meta({ description: 'The first step not done; null once every step is' }),
  doneCount: z.number().int().min(0),
  approvers: z.number().int().min(0).meta({ description: 'Providers of the clinic who can approve now (verified NPI, two-factor on)' }),
  hostedPageUrl: z.string().nullable().meta({ description: 'The live hosted page, once every step is done' }),
  steps: z.array(ZGoLiveStep),
});
