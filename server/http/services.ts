import type { Services } from '@/server/api/context';
import { provideProcessServices } from '@/server/api/process-services';
import { openDatabase, type DatabaseOptions } from '@/server/db/client';
import { acquirePgliteLock } from '@/server/db/pglite-lock';
import { ensureOpsKey } from '@/server/domain/ops/tenants';
import { publicBaseUrl, type Config } from '@/server/lib/config';
import { createRateLimiter } from '@/server/lib/rate-limit';
import { createAttemptLimits } from '@/server/domain/auth/attempt-limits';
import { createMailer, mailerOptionsOf } from '@/server/integrations/mail/mailer';
import { resolveAuthSecret } from '@/server/lib/auth-secret';
import { logger } from '@/server/lib/logger';
import { ensureCertificateKey } from '@/server/domain/intake/certificates';
import { createServingKeyCache, PUBLIC_CHANGES_CHANNEL } from '@/server/domain/embed/serving-key-cache';

/** Opens the database, migrates it, ensures the ops key and the certificate signing key, and builds the process-wide services. */
export async function createServices(config: Config, opts: Pick<DatabaseOptions, 'pgliteLease'> = {}): Promise<Services> {
  if (!config.DATABASE_URL && !config.PGLITE_DATA_DIR.startsWith('memory://')) acquirePgliteLock(config.PGLITE_DATA_DIR);
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, pgliteDataDir: config.PGLITE_DATA_DIR, ...opts });
  await database.migrate();
  if (config.OPS_BOOTSTRAP_KEY) await ensureOpsKey(database.db, config.OPS_BOOTSTRAP_KEY);

  let redis: import('ioredis').Redis | undefined;
  if (config.REDIS_URL) {
    const { Redis } = await import('ioredis');
    redis = new Redis(config.REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
    await redis.connect().catch((err: Error) => {
      throw new Error(`Cannot reach Redis at REDIS_URL (${err.message}). Start Redis or unset REDIS_URL to use in-memory rate limits.`);
    });
  }
  const rateLimiter = createRateLimiter({
    livePerSecond: config.RATE_LIMIT_LIVE,
    sandboxPerSecond: config.RATE_LIMIT_SANDBOX,
    redis,
  });
  const embedRateLimiter = createRateLimiter({
    livePerSecond: config.EMBED_RATE_LIMIT,
    sandboxPerSecond: config.EMBED_RATE_LIMIT,
    redis,
    prefix: 'fr-rl-embed',
    name: 'embed',
  });
  const authSecret = resolveAuthSecret(config);
  const auth = {
    db: database.db,
    secret: new TextEncoder().encode(authSecret),
    consoleSecret: authSecret,
    limits: createAttemptLimits(redis),
    mailer: await createMailer(mailerOptionsOf(config)),
    publicUrl: publicBaseUrl(config),
  };
  // The certificate signing key exists from the first start (DESIGN decision 20); `auth` holds what signing needs.
  const certificateKey = await ensureCertificateKey(database.db, auth.secret);
  if (certificateKey.created) logger.info({ kid: certificateKey.kid }, 'certificate signing key created');
  if (!certificateKey.usable) {
    logger.error({ kid: certificateKey.kid }, 'the certificate signing key cannot be decrypted with this AUTH_SECRET: restore it or run certs:rotate');
  }
  // DESIGN decision 29: Stripe serves live billing when configured; without it every account uses the simulated provider.
  // Loaded only then: the SDK is large and most installs never use it.
  const payments = config.STRIPE_SECRET_KEY ? (await import('@/server/integrations/payments/stripe')).createStripePayments(config) : null;
  // Changes announced by any process (or heard again after the LISTEN connection was re-opened: '') empty the cache.
  const servingKeys = createServingKeyCache();
  const unlisten = await database.listen(PUBLIC_CHANGES_CHANNEL, (tenantId) => servingKeys.invalidate(tenantId || undefined));
  const close = async () => {
    servingKeys.close();
    await unlisten();
    redis?.disconnect();
    await database.close();
  };
  const services: Services = { database, config, rateLimiter, embedRateLimiter, servingKeys, auth, payments, close };
  provideProcessServices(services);
  return services;
}
