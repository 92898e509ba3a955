import { publicProcedure } from '@/server/api/procedures';
import { clientIp } from '@/server/api/client-ip';
import { loginWithPassword } from '@/server/domain/auth/login';
import { loginMeta, ZLoginRequest, ZLoginResponse } from './login.types';

export const loginRoute = publicProcedure
  .meta(loginMeta)
  .input(ZLoginRequest)
  .output(ZLoginResponse)
  .mutation(({ ctx, input }) => loginWithPassword(ctx.services.auth, input.email, input.password, clientIp(ctx.req, ctx.services.auth.consoleSecret)));
