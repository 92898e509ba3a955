import { hostedLinkProcedure } from '@/server/api/procedures';
import { getHostedIntake } from '@/server/domain/intake/hosted-links';
import { getHostedIntakeMeta, ZGetHostedIntakeRequest, ZGetHostedIntakeResponse } from './get-hosted-intake.types';

export const getHostedIntakeRoute = hostedLinkProcedure
  .meta(getHostedIntakeMeta)
  .input(ZGetHostedIntakeRequest)
  .output(ZGetHostedIntakeResponse)
  .query(({ ctx }) => getHostedIntake(ctx.services.database.db, ctx.hostedLink));
