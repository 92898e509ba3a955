import { publicProcedure } from '@/server/api/procedures';
import { clientIp } from '@/server/api/client-ip';
import { resolvePrincipal } from '@/server/api/middlewares/authenticate';
import { completeMfaLogin, confirmMfa } from '@/server/domain/auth/mfa';
import { requireUser } from '@/server/domain/auth/current-user';
import { errors } from '@/server/lib/errors';
import { mfaVerifyMeta, ZMfaVerifyRequest, ZMfaVerifyResponse } from './mfa-verify.types';

export const mfaVerifyRoute = publicProcedure
  .meta(mfaVerifyMeta)
  .input(ZMfaVerifyRequest)
  .output(ZMfaVerifyResponse)
  .mutation(async ({ ctx, input }) => {
    const ip = clientIp(ctx.req, ctx.services.auth.consoleSecret);
    if (input.mfaToken) return completeMfaLogin(ctx.services.auth, input.mfaToken, input.code, ip);
    // Without an MFA token this confirms enrollment, which needs the bearer session of the person enrolling.
    const principal = await resolvePrincipal(ctx);
    if (principal.kind !== 'user' || !principal.userId) {
      throw errors.forbidden('Confirming enrollment needs a user session; completing a sign-in needs mfaToken.', 'user_session_required');
    }
    return confirmMfa(ctx.services.auth, await requireUser(ctx.services.database.db, principal.userId), input.code, ip);
  });
