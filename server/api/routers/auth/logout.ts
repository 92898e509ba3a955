import { userProcedure } from '@/server/api/procedures';
import { endSessionFamily } from '@/server/domain/auth/sessions';
import { endAllSessions } from '@/server/domain/auth/user-admin';
import { logoutMeta, ZLogoutRequest, ZLogoutResponse } from './logout.types';

export const logoutRoute = userProcedure
  .meta(logoutMeta)
  .input(ZLogoutRequest)
  .output(ZLogoutResponse)
  .mutation(async ({ ctx, input }) => {
    const db = ctx.services.database.db;
    if (input.refreshToken) await endSessionFamily(db, ctx.principal.userId, input.refreshToken);
    else await endAllSessions(db, ctx.principal.userId);
    return { ok: true as const };
  });
