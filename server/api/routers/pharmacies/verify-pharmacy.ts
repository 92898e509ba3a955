import { keyOrUserProcedure } from '@/server/api/procedures';
import { startVerification } from '@/server/domain/pharmacies/verify';
import { verifyPharmacyMeta, ZVerifyPharmacyRequest, ZVerifyPharmacyResponse } from './verify-pharmacy.types';

export const verifyPharmacyRoute = keyOrUserProcedure
  .meta(verifyPharmacyMeta)
  .input(ZVerifyPharmacyRequest)
  .output(ZVerifyPharmacyResponse)
  .mutation(({ ctx, input }) => startVerification(ctx.services.database.db, ctx.principal, input.id, ctx.principal.userId ?? ctx.principal.keyId ?? null));
