/**
 * Addresses of the patient portal (DESIGN decision 39), for every message that sends a patient there: the sign-in
 * mail, and the milestone notices (decision 41). The portal is per embed key: it signs in that key's clinic's
 * patients, in that key's mode, in the clinic's theme.
 */

const base = (publicBaseUrl: string) => publicBaseUrl.replace(/\/+$/, '');

/** The portal's page for a clinic's embed key: `${publicBaseUrl}/p/${embedKey}`. */
export function portalUrl(publicBaseUrl: string, embedKey: string): string {
  return `${base(publicBaseUrl)}/p/${encodeURIComponent(embedKey)}`;
}

/**
 * The one-click sign-in link of a login mail: the portal's sign-in page with the challenge's link token
 * (`<challenge id>.<code>`, the same one-time secret as the code in the mail). Opening it signs the patient in.
 */
export function portalSignInUrl(publicBaseUrl: string, embedKey: string, linkToken: string): string {
  return `${portalUrl(publicBaseUrl, embedKey)}/sign-in?t=${encodeURIComponent(linkToken)}`;
}
