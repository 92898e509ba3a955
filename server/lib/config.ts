import { z } from 'zod';

const duration = /^\d+(ms|s|m|h)?$/;

const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  PGLITE_DATA_DIR: z.string().default('.data/pglite'),
  REDIS_URL: z.string().url().optional(),
  OPS_BOOTSTRAP_KEY: z.string().min(16, 'OPS_BOOTSTRAP_KEY must be at least 16 characters').optional(),
  AUTH_SECRET: z.string().min(32).optional(),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default('0,5s,5m,30m,2h,5h,10h,10h')
    .refine((v) => v.split(',').every((p) => duration.test(p.trim())), 'comma-separated durations like 0,5s,5m,2h'),
  WEBHOOKS_ALLOW_LOCALHOST: z.enum(['true', 'false', '1', '0']).optional(),
  SEED_DEMO: z.enum(['true', 'false', '1', '0']).optional(),
  RUN_WORKER: z.enum(['true', 'false', '1', '0']).default('true'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_LIVE: z.coerce.number().int().positive().default(100),
  RATE_LIMIT_SANDBOX: z.coerce.number().int().positive().default(25),
  SMTP_URL: z.string().url().optional(),
  MAIL_FROM: z.string().default('Fulfillment Rail <no-reply@fulfillment-rail.local>'),
  MAIL_OUTBOX_DIR: z.string().default('.data/mail'),
  PUBLIC_URL: z.string().url().optional(),
  MAX_BODY_BYTES: z.coerce.number().int().positive().default(1_048_576),
});

export type Config = z.infer<typeof ConfigSchema>;

export const truthy = (v: string | undefined) => v === 'true' || v === '1';

/** Reads and validates the environment; a bad value stops start-up with a message naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
