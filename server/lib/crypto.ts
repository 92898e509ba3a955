import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/**
 * HMAC-SHA256 of `value` under `secret`, separated by `purpose` (a label with a version), base64url: a value
 * derived from the server's secret that nobody without it can compute or reverse.
 */
export function keyedHash(secret: Uint8Array, purpose: string, value: string): string {
  return createHmac('sha256', secret).update(`fulfillment-rail ${purpose}\0${value}`).digest('base64url');
}

/** Uniform base62 string; rejection sampling avoids modulo bias. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** Compares two secrets in time that does not depend on where they differ. */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
