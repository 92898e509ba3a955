import { sessionProcedure } from '@/server/api/procedures';
import { grantsOf } from '@/server/domain/auth/grants';
import { ZConsoleGrantsRequest, ZConsoleGrantsResponse } from './grants.types';

/** What the signed-in person may grant (roles, key scopes), so forms offer only what the API would accept. */
export const consoleGrantsRoute = sessionProcedure
  .input(ZConsoleGrantsRequest)
  .output(ZConsoleGrantsResponse)
  .query(({ ctx }) => grantsOf(ctx.principal.user?.role ?? 'developer', ctx.principal.scopes));
