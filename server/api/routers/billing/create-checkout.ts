import { keyOrUserProcedure } from '@/server/api/procedures';
import { startCheckout } from '@/server/domain/billing/checkout';
import { createCheckoutMeta, ZCreateCheckoutRequest, ZCreateCheckoutResponse } from './create-checkout.types';

export const createCheckoutRoute = keyOrUserProcedure
  .meta(createCheckoutMeta)
  .input(ZCreateCheckoutRequest)
  .output(ZCreateCheckoutResponse)
  .mutation(({ ctx, input }) =>
    startCheckout(ctx.services.database.db, ctx.principal, input, { payments: ctx.services.payments, publicUrl: ctx.services.auth.publicUrl }),
  );
