import { randomInt } from 'node:crypto';
import { keyedHash } from '@/server/lib/crypto';
import { normalizeEmail } from '@/server/lib/email';

/**
 * The one-time secrets of a portal sign-in (DESIGN decision 39): a 6-digit code, mailed with a one-click link that
 * carries the same code (`<challenge id>.<code>`). Only keyed hashes are stored (HMAC under AUTH_SECRET), so a
 * copy of the database alone cannot turn a stored hash back into one of the million codes.
 */

/** A link token: the challenge's id and its code. */
const LINK_TOKEN = /^(plc_[0-9a-z]{26})\.(\d{6})$/;

/** The e-mail as sign-in rows and limits know it: a keyed hash of its one spelling (never the address itself). */
export const emailKeyOf = (secret: Uint8Array, email: string) => keyedHash(secret, 'patient-login email v1', normalizeEmail(email));

export const newLoginCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

export const codeHashOf = (secret: Uint8Array, challengeId: string, code: string) => keyedHash(secret, 'patient-login code v1', `${challengeId}:${code}`);

export const linkTokenOf = (challengeId: string, code: string) => `${challengeId}.${code}`;

/** The challenge and code a link token names, or null for anything else. */
export function parseLinkToken(token: string): { challengeId: string; code: string } | null {
  const m = LINK_TOKEN.exec(token);
  return m ? { challengeId: m[1], code: m[2] } : null;
}
