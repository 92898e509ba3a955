import { randomBase62, sha256Hex } from '@/server/lib/crypto';

export type KeyType = 'secret' | 'restricted';

/** Plaintext keys (DESIGN decision 1): nk_ secret, rk_ restricted, then mode, then 32 base62 characters. */
export function mintKey(keyType: KeyType, livemode: boolean) {
  const plaintext = `${keyType === 'secret' ? 'nk' : 'rk'}_${livemode ? 'live' : 'sandbox'}_${randomBase62(32)}`;
  return describeKey(plaintext);
}

/** The stored, non-secret facts of a plaintext key. */
export function describeKey(plaintext: string) {
  return { plaintext, hash: sha256Hex(plaintext), prefix: plaintext.slice(0, 12), last4: plaintext.slice(-4) };
}

