import type { Db } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { getPatient } from '@/server/domain/patients/patients';
import type { StoredResponse } from './idempotency';

/** What a response carries that the idempotency store must not keep (issue 20). */
export interface Sensitive {
  /** Fields holding a secret shown once (a key's plaintext, a whsec_ or TOTP secret). */
  secretFields?: readonly string[];
  /** The response is a patient record (PHI). */
  patient?: boolean;
}

export const secretNote = (fields: readonly string[]) =>
  `Replayed response: ${fields.map((f) => `\`${f}\``).join(' and ')} ${fields.length > 1 ? 'are' : 'is'} shown only once, in the first response, and never stored, so ${fields.length > 1 ? 'they are' : 'it is'} null here. If it was lost, revoke or delete this resource and create a new one.`;

/** The form kept for a replay: secrets nulled with a note; of a patient record only its id. */
export function toStored(status: number, body: unknown, s: Sensitive): StoredResponse {
  if (s.patient) return { status, body: null, resourceId: (body as { id: string }).id };
  if (!s.secretFields?.length || !body || typeof body !== 'object') return { status, body };
  const redacted: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const f of s.secretFields) redacted[f] = null;
  return { status, body: { ...redacted, note: secretNote(s.secretFields) } };
}

/**
 * The body a replay answers with. A patient record is read again through the scoped helper, as it is now,
 * and that read is a disclosure written to the access log like any other.
 */
export async function replayBody(db: Db, principal: TenantPrincipal, stored: { body: unknown; resourceId: string | null }, s: Sensitive, requestId: string) {
  if (s.patient && stored.resourceId) return getPatient(db, principal, { id: stored.resourceId }, requestId);
  return stored.body;
}
