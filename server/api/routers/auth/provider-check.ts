import { providerProcedure } from '@/server/api/procedures';
import { providerCheckMeta, ZProviderCheckRequest, ZProviderCheckResponse } from './provider-check.types';

export const providerCheckRoute = providerProcedure
  .meta(providerCheckMeta)
  .input(ZProviderCheckRequest)
  .output(ZProviderCheckResponse)
  .mutation(({ ctx, input }) => {
    const { user } = ctx.principal;
    const authorized = user.licensedStates.includes(input.state);
    return {
      authorized,
      state: input.state,
      npi: user.npi!,
      licensedStates: [...user.licensedStates],
      reason: authorized ? null : `You are not licensed in ${input.state}.`,
    };
  });
