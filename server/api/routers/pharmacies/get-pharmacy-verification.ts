import { keyOrUserProcedure } from '@/server/api/procedures';
import { lastVerification } from '@/server/domain/pharmacies/verify';
import { getPharmacyVerificationMeta, ZGetPharmacyVerificationRequest, ZGetPharmacyVerificationResponse } from './get-pharmacy-verification.types';

export const getPharmacyVerificationRoute = keyOrUserProcedure
  .meta(getPharmacyVerificationMeta)
  .input(ZGetPharmacyVerificationRequest)
  .output(ZGetPharmacyVerificationResponse)
  .query(({ ctx, input }) => lastVerification(ctx.services.database.db, ctx.principal, input.id));
