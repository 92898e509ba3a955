import { userProcedure } from '@/server/api/procedures';
import { enrollMfa } from '@/server/domain/auth/mfa';
import { requireUser } from '@/server/domain/auth/current-user';
import { mfaEnrollMeta, ZMfaEnrollRequest, ZMfaEnrollResponse } from './mfa-enroll.types';

export const mfaEnrollRoute = userProcedure
  .meta(mfaEnrollMeta)
  .input(ZMfaEnrollRequest)
  .output(ZMfaEnrollResponse)
  .mutation(async ({ ctx }) => enrollMfa(ctx.services.auth, await requireUser(ctx.services.database.db, ctx.principal.userId)));
