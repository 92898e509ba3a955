import 'server-only';
import { cookies } from 'next/headers';
import { processServices } from '@/server/api/process-services';
import { forwardedHttps } from '@/server/lib/forwarded-https';

/**
 * The patient portal's session in the browser (DESIGN decision 39): the patient session token in an HttpOnly,
 * SameSite=Strict cookie, `Secure` under https, scoped to the portal of one embed key (`/p/{embedKey}`), so
 * page scripts never see it and no other site's page can send it. It lives 12 hours at most, the session's own
 * limit; the server ends the session sooner after 30 minutes unused.
 */
export const PATIENT_COOKIE = 'fr_patient';
const MAX_AGE_S = 12 * 3600;

const secure = () => forwardedHttps() || processServices().auth.publicUrl.startsWith('https://');
const portalPath = (embedKey: string) => `/p/${encodeURIComponent(embedKey)}`;

export async function readPatientToken(): Promise<string | undefined> {
  return (await cookies()).get(PATIENT_COOKIE)?.value;
}

/** Only a server action or route handler may write cookies (a page's render cannot). */
export async function keepPatientToken(embedKey: string, token: string): Promise<void> {
  (await cookies()).set(PATIENT_COOKIE, token, { httpOnly: true, sameSite: 'strict', secure: secure(), path: portalPath(embedKey), maxAge: MAX_AGE_S });
}

export async function forgetPatientToken(embedKey: string): Promise<void> {
  (await cookies()).set(PATIENT_COOKIE, '', { httpOnly: true, sameSite: 'strict', secure: secure(), path: portalPath(embedKey), maxAge: 0 });
}
