import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { findHostedLink } from '@/server/domain/intake/hosted-links';
import { errors } from '@/server/lib/errors';
import { clientIp } from '../client-ip';
import { middleware } from '../trpc';
import { enforceRateDecision } from './rate-limit';

/**
 * The public hosted-link paths carry no credential: the token in the path is one. Callers are limited per
 * client address before the token is looked at, so guessing tokens costs the guesser their own budget.
 */
export const publicIpRateLimit = middleware(async ({ ctx, next }) => {
  const ip = clientIp(ctx.req, ctx.services.auth.consoleSecret);
  // The public paths' budget (EMBED_RATE_LIMIT), as for an embed key, counted per address.
  const decision = await ctx.services.embedRateLimiter.consume(`hosted:${ip}`, true);
  enforceRateDecision(ctx.state, decision);
  return next();
});

/**
 * Resolves `{token}` to its unexpired link (unknown and expired are one 404; a used link still resolves, so a
 * replayed submission can be answered, and the procedures refuse it otherwise). The link stands in for the
 * principal the idempotency middleware keys its store by: the link's tenant and mode, the link as credential.
 */
export const hostedLink = middleware(async ({ ctx, getRawInput, next }) => {
  const raw = (await getRawInput()) as { token?: unknown } | undefined;
  const token = typeof raw?.token === 'string' ? raw.token : '';
  const link = await findHostedLink(ctx.services.database.db, token);
  if (!link) throw errors.notFound('intake link');
  const principal: TenantPrincipal = { kind: 'key', tenantId: link.tenantId, livemode: link.livemode, scopes: [], keyId: link.id, rateLimitKey: link.id };
  return next({ ctx: { hostedLink: link, principal } });
});
