import { randomBase62, sha256Hex } from '@/server/lib/crypto';

export type KeyType = 'secret' | 'restricted';

const KEY_PATTERN = /^(nk|rk)_(live|sandbox)_[0-9A-Za-z]{32}$/;

/** Plaintext keys (DESIGN decision 1): nk_ secret, rk_ restricted, then mode, then 32 base62 characters. */
export function mintKey(keyType: KeyType, livemode: boolean) {
  const plaintext = `${keyType === 'secret' ? 'nk' : 'rk'}_${livemode ? 'live' : 'sandbox'}_${randomBase62(32)}`;
  return describeKey(plaintext);
}

/** The stored, non-secret facts of a plaintext key. */
export function describeKey(plaintext: string) {
  return { plaintext, hash: sha256Hex(plaintext), prefix: plaintext.slice(0, 12), last4: plaintext.slice(-4) };
}

export function looksLikeApiKey(token: string): boolean {
  return KEY_PATTERN.test(token);
}
