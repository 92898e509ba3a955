import { embedProcedure } from '@/server/api/procedures';
import { submitPublic } from '@/server/domain/intake/public-intake';
import { submitPublicIntakeMeta, ZSubmitPublicIntakeRequest, ZSubmitPublicIntakeResponse } from './submit-public-intake.types';

export const submitPublicIntakeRoute = embedProcedure
  .meta(submitPublicIntakeMeta)
  .input(ZSubmitPublicIntakeRequest)
  .output(ZSubmitPublicIntakeResponse)
  .mutation(({ ctx, input }) => submitPublic(ctx.services.database.db, ctx.embed, input, ctx.state.requestId, { deps: ctx.services.auth }));
