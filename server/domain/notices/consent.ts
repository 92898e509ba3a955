import { eq } from 'drizzle-orm';
import { patients } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import type { MatchedPatient } from '@/server/domain/intake/patient-matching';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';

/** A consent to texts needs the number they go to: 400 naming the consent field when no phone came with it. */
export function assertConsentHasPhone(smsConsent: boolean | undefined, phone: string | null | undefined, param: string) {
  if (smsConsent === true && !phone) throw errors.validation('A consent to text messages needs a phone number to send them to: add the phone number, or leave the box unticked.', param, 'phone_required');
}

/**
 * Records a patient's consent to text messages given with a phone on a public path (DESIGN decision 41): sets
 * `sms_consent_at` and turns SMS on. A matched record is never changed by an unauthenticated caller (decision 32),
 * so the consent is kept for a patient made from this submission (sandbox's synthetic one too, whose number is
 * fictitious, so that sandbox rehearses texts into the outbox), or for a matched one whose identity facts agree
 * and whose number on file is the one given. Otherwise it is not recorded: the patient can turn texts on from the
 * portal. Returns whether it was recorded.
 */
export async function recordSmsConsent(tx: Queryable, scope: Scope, matched: MatchedPatient, phone: string | null | undefined): Promise<boolean> {
  const { patient } = matched;
  const sameNumber = !matched.created && matched.mismatch.length === 0 && Boolean(phone) && patient.phone === phone;
  if (!matched.created && !sameNumber) return false;
  const at = now();
  await tx.update(patients).set({ smsConsentAt: at, notifySms: true, updatedAt: at }).where(scoped(tx, scope).where(patients, eq(patients.id, patient.id)));
  return true;
}
