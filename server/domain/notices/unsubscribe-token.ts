import type { NoticeChannel } from '@/db/schema';
import { keyedHash, safeEqual } from '@/server/lib/crypto';

/** What an unsubscribe link stands for: one patient of one clinic and mode, one channel. */
export interface UnsubscribeClaims {
  tenantId: string;
  livemode: boolean;
  patientId: string;
  channel: NoticeChannel;
}

const PURPOSE = 'notice unsubscribe v1';
const ID = /^[a-z]{2,5}_[0-9a-z]{26}$/;
// Far longer than any token this module makes (≈ 150 characters); anything longer is refused unread.
const MAX_TOKEN = 400;

/**
 * `<payload>.<mac>`: the payload is base64url JSON `{t, l, p, c}` (tenant, livemode, patient, channel), the mac an
 * HMAC-SHA256 of the payload under the service's secret (AUTH_SECRET), like the server's other derived values
 * (server/lib/crypto.ts `keyedHash`). No expiry: an opt-out link in an old message must keep working, and it can
 * do nothing but stop messages to the patient it names.
 */
export function signUnsubscribeToken(secret: Uint8Array, c: UnsubscribeClaims): string {
  const payload = Buffer.from(JSON.stringify({ t: c.tenantId, l: c.livemode ? 1 : 0, p: c.patientId, c: c.channel })).toString('base64url');
  return `${payload}.${keyedHash(secret, PURPOSE, payload)}`;
}

/** The claims of a token this service signed, or null (malformed, altered, or signed under another secret). */
export function verifyUnsubscribeToken(secret: Uint8Array, token: string): UnsubscribeClaims | null {
  if (token.length > MAX_TOKEN) return null;
  const [payload, mac, extra] = token.split('.');
  if (!payload || !mac || extra !== undefined || !/^[A-Za-z0-9_-]+$/.test(payload)) return null;
  if (!safeEqual(mac, keyedHash(secret, PURPOSE, payload))) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const v = raw as { t?: unknown; l?: unknown; p?: unknown; c?: unknown };
  if (typeof v.t !== 'string' || !ID.test(v.t) || typeof v.p !== 'string' || !ID.test(v.p) || (v.l !== 0 && v.l !== 1) || (v.c !== 'email' && v.c !== 'sms')) return null;
  return { tenantId: v.t, livemode: v.l === 1, patientId: v.p, channel: v.c };
}

export const unsubscribeUrl = (publicBaseUrl: string, token: string) => `${publicBaseUrl.replace(/\/+$/, '')}/unsubscribe?token=${token}`;
