import { authenticateApiKey } from '@/server/domain/developer/authenticate-key';
import { errors } from '@/server/lib/errors';
import { middleware } from '../trpc';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** Resolves `Authorization: Bearer <credential>` to a principal; anything missing or wrong is a 401. */
export const authenticate = middleware(async ({ ctx, next }) => {
  const header = ctx.req.headers.authorization;
  if (!header) throw errors.unauthenticated('No API key provided. Pass it as "Authorization: Bearer <key>".', 'missing_api_key');
  const match = BEARER.exec(header);
  if (!match) throw errors.unauthenticated('Malformed Authorization header. Expected "Bearer <key>".', 'malformed_authorization');
  const principal = await authenticateApiKey(ctx.services.database.db, match[1]);
  return next({ ctx: { principal } });
});
