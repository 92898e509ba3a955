import type { Principal } from '@/server/domain/auth/principal';
import { errors } from '@/server/lib/errors';
import { middleware } from '../trpc';

export const rateLimit = middleware(async ({ ctx, next }) => {
  const principal = (ctx as typeof ctx & { principal: Principal }).principal;
  const decision = await ctx.services.rateLimiter.consume(principal.rateLimitKey, principal.livemode);
  Object.assign(ctx.state.headers, {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
  });
  if (!decision.allowed) throw errors.rateLimited(decision.resetSeconds);
  return next();
});
