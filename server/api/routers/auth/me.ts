import { authedProcedure } from '@/server/api/procedures';
import { describeCaller } from '@/server/domain/auth/me';
import { meMeta, ZMeRequest, ZMeResponse } from './me.types';

export const meRoute = authedProcedure
  .meta(meMeta)
  .input(ZMeRequest)
  .output(ZMeResponse)
  .query(({ ctx }) => describeCaller(ctx.services.database.db, ctx.principal));
