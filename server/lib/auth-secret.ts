import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { oncePerConfig, type Config } from './config';

/**
 * The key that signs session tokens. Set AUTH_SECRET in any multi-instance deployment; a single embedded
 * instance generates one and keeps it under .data/ so sessions survive restarts. One per configuration: the web
 * side and the worker of one process (or of one test app) resolve it separately, and a throw-away database's
 * secret is random, so both must get the same draw.
 */
export const resolveAuthSecret = oncePerConfig(readAuthSecret);

function readAuthSecret(config: Config): string {
  const fromEnv = config.AUTH_SECRET;
  let secret = fromEnv;
  if (!secret && config.DATABASE_URL && config.NODE_ENV === 'production') {
    throw new Error('AUTH_SECRET must be set (at least 32 characters) when running on PostgreSQL in production.');
  }
  if (!secret && config.PGLITE_DATA_DIR.startsWith('memory://')) secret = randomBytes(32).toString('base64url');
  if (!secret) {
    const file = path.join(path.dirname(path.resolve(config.PGLITE_DATA_DIR)), 'auth-secret');
    if (!fs.existsSync(file)) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
    }
    secret = fs.readFileSync(file, 'utf8').trim();
  }
  return secret;
}
