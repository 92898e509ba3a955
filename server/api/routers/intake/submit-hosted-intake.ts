import { hostedLinkProcedure } from '@/server/api/procedures';
import { submitHosted } from '@/server/domain/intake/hosted-links';
import { submitHostedIntakeMeta, ZSubmitHostedIntakeRequest, ZSubmitHostedIntakeResponse } from './submit-hosted-intake.types';

export const submitHostedIntakeRoute = hostedLinkProcedure
  .meta(submitHostedIntakeMeta)
  .input(ZSubmitHostedIntakeRequest)
  .output(ZSubmitHostedIntakeResponse)
  .mutation(({ ctx, input }) => submitHosted(ctx.services.database.db, ctx.hostedLink, input.answers, { deps: ctx.services.auth }));
