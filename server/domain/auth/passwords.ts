import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const PARAMS = { N: 16384, r: 8, p: 1, keylen: 32 };

function derive(password: string, salt: Buffer, o: typeof PARAMS): Promise<Buffer> {
  const opts: ScryptOptions = { N: o.N, r: o.r, p: o.p, maxmem: 64 * 1024 * 1024 };
  return new Promise((resolve, reject) => scrypt(password, salt, o.keylen, opts, (err, key) => (err ? reject(err) : resolve(key))));
}

/** scrypt, self-describing so parameters can be raised later without breaking stored hashes. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [alg, n, r, p, salt, key] = stored.split('$');
  if (alg !== 'scrypt' || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p), keylen: expected.length });
  return timingSafeEqual(actual, expected);
}

// Verifying against this when no user matches keeps response time the same for unknown e-mails.
let decoy: Promise<string> | undefined;
export async function burnDecoyVerification(password: string): Promise<void> {
  decoy ??= hashPassword('decoy-password-for-timing');
  await verifyPassword(password, await decoy);
}
