import { keyOrUserProcedure } from '@/server/api/procedures';
import { openPortal } from '@/server/domain/billing/checkout';
import { createPortalMeta, ZCreatePortalRequest, ZCreatePortalResponse } from './create-portal.types';

export const createPortalRoute = keyOrUserProcedure
  .meta(createPortalMeta)
  .input(ZCreatePortalRequest)
  .output(ZCreatePortalResponse)
  .mutation(({ ctx }) => openPortal(ctx.services.database.db, ctx.principal, { payments: ctx.services.payments, publicUrl: ctx.services.auth.publicUrl }));
