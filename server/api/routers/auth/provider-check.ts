import { providerProcedure } from '@/server/api/procedures';
import { providerAuthority } from '@/server/domain/auth/licenses';
import { providerCheckMeta, ZProviderCheckRequest, ZProviderCheckResponse } from './provider-check.types';

export const providerCheckRoute = providerProcedure
  .meta(providerCheckMeta)
  .input(ZProviderCheckRequest)
  .output(ZProviderCheckResponse)
  .mutation(({ ctx, input }) => providerAuthority(ctx.principal.user, input.state));
