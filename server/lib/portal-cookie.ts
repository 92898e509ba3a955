/**
 * The patient portal's session in the browser (DESIGN decision 39): the patient session token in an HttpOnly,
 * SameSite=Strict cookie, `Secure` under https, scoped to the portal of one embed key (`/p/{embedKey}`), so
 * page scripts never see it and no other site's page can send it. It lives 12 hours at most, the session's own
 * limit; the server ends the session sooner after 30 minutes unused. Written only by the portal's actions
 * (server/http/portal-actions.ts); read by its pages, in the custom server and in Next.js alike. Here, with no
 * area, because all three layers that touch it (server/http, app, web) may import server/lib.
 */
export const PATIENT_COOKIE = 'fr_patient';
const MAX_AGE_S = 12 * 3600;

const portalCookiePath = (embedKey: string) => `/p/${encodeURIComponent(embedKey)}`;

/** The `Set-Cookie` value that keeps `token` for this portal, or forgets it (`null`). */
export function patientCookie(embedKey: string, token: string | null, secure: boolean): string {
  const parts = [`${PATIENT_COOKIE}=${token ? encodeURIComponent(token) : ''}`, `Path=${portalCookiePath(embedKey)}`, `Max-Age=${token ? MAX_AGE_S : 0}`, 'HttpOnly', 'SameSite=Strict'];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

/** The token in a request's `Cookie` header, if any (the first of the name, as browsers send the most specific path first). */
export function patientTokenOf(cookieHeader: string | undefined): string | undefined {
  for (const pair of (cookieHeader ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== PATIENT_COOKIE) continue;
    const value = pair.slice(at + 1).trim();
    try {
      return value ? decodeURIComponent(value) : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
