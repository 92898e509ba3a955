import { publicProcedure } from '@/server/api/procedures';
import { rotateRefreshToken } from '@/server/domain/auth/sessions';
import { findUserById } from '@/server/domain/auth/users';
import { refreshMeta, ZRefreshRequest, ZRefreshResponse } from './refresh.types';

export const refreshRoute = publicProcedure
  .meta(refreshMeta)
  .input(ZRefreshRequest)
  .output(ZRefreshResponse)
  .mutation(({ ctx, input }) => {
    const db = ctx.services.database.db;
    return rotateRefreshToken(db, ctx.services.auth.secret, input.refreshToken, (id) => findUserById(db, id));
  });
