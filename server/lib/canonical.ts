import canonicalize from 'canonicalize';
import { sha256Hex } from './crypto';

/** RFC 8785 canonical JSON: the same value always serialises to the same bytes, whatever its key order. */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('Cannot canonicalise a value with no JSON form');
  return text;
}

/** SHA-256 hex of the canonical JSON: content hashes of questionnaires and flows' clinical planes. */
export const canonicalHash = (value: unknown): string => sha256Hex(canonicalJson(value));
