import { and, gt, isNull } from 'drizzle-orm';
import { patientLoginChallenges, patients } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import type { Mailer } from '@/server/integrations/mail/mailer';
import { requireTenant } from '@/server/domain/ops/tenants';
import { now } from '@/server/lib/clock';
import { portalSignInUrl } from '../portal-link';
import { codeHashOf, emailKeyOf, linkTokenOf, newLoginCode } from './login-secrets';

/** What the mail says: the clinic, the code and the link; nothing about the patient (not even their name). */
export function loginMailText(f: { clinicName: string; code: string; link: string; sandbox: boolean }) {
  return {
    subject: `Your sign-in code for ${f.clinicName}`,
    text: [
      ...(f.sandbox ? ['Test mode: this message comes from a sandbox portal.', ''] : []),
      `Your code to sign in to ${f.clinicName}'s patient portal:`,
      '',
      `    ${f.code}`,
      '',
      'Or open this link to sign in at once:',
      '',
      f.link,
      '',
      'The code and the link work once, for 10 minutes.',
      'If you did not ask to sign in, ignore this message: nothing happens without the code.',
    ].join('\n'),
  };
}

/**
 * The worker's half of a sign-in request (job `patient_login.mail`): a challenge that matched a patient, still
 * open, gets its code now. The code's hash is stored before the mail leaves, so the mail never carries a code
 * that does not work; a retry draws a new code, and the earlier one stops working. A challenge that matched no
 * one, or whose patient's address on file is no longer the one typed, sends nothing.
 */
export async function sendPatientLoginMail(q: Queryable, deps: { secret: Uint8Array; mailer: Mailer; publicUrl: string }, scope: Scope, challengeId: string): Promise<'sent' | 'nothing_to_send'> {
  const s = scoped(q, scope);
  const challenge = await s.get(patientLoginChallenges, challengeId);
  if (!challenge?.patientId || challenge.usedAt || challenge.expiresAt <= now()) return 'nothing_to_send';
  const patient = await s.get(patients, challenge.patientId);
  if (!patient?.email || emailKeyOf(deps.secret, patient.email) !== challenge.emailKey) return 'nothing_to_send';
  const code = newLoginCode();
  const stored = await s.update(
    patientLoginChallenges,
    challenge.id,
    { codeHash: codeHashOf(deps.secret, challenge.id, code) },
    and(isNull(patientLoginChallenges.usedAt), gt(patientLoginChallenges.expiresAt, now())),
  );
  if (!stored) return 'nothing_to_send';
  const tenant = await requireTenant(q, scope.tenantId);
  const link = portalSignInUrl(deps.publicUrl, challenge.embedKeyId, linkTokenOf(challenge.id, code));
  await deps.mailer.send({ to: patient.email, ...loginMailText({ clinicName: tenant.name, code, link, sandbox: !scope.livemode }), link });
  return 'sent';
}
