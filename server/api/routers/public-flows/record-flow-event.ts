import { embedProcedure } from '@/server/api/procedures';
import { recordBeacon } from '@/server/domain/flows/runtime/beacons';
import { recordFlowEventMeta, ZRecordFlowEventRequest, ZRecordFlowEventResponse } from './record-flow-event.types';

export const recordFlowEventRoute = embedProcedure
  .meta(recordFlowEventMeta)
  .input(ZRecordFlowEventRequest)
  .output(ZRecordFlowEventResponse)
  .mutation(({ ctx, input }) => recordBeacon(ctx.services.database.db, ctx.embed, input.id, { type: input.type, stepId: input.stepId }));
