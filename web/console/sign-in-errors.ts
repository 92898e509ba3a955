/**
 * The errors next-auth's Credentials providers hand back to the sign-in pages (as `signIn(...).error`).
 * Shared by server and browser code, so it imports nothing.
 */
export const MFA_REQUIRED = 'MfaRequired';

/** The magic-link provider appends the API's MFA token: the link itself works only once. */
export function mfaRequiredError(mfaToken?: string): string {
  return mfaToken ? `${MFA_REQUIRED}:${mfaToken}` : MFA_REQUIRED;
}

export function parseSignInError(error: string): { mfaRequired: boolean; mfaToken?: string; message: string } {
  if (error === MFA_REQUIRED || error.startsWith(`${MFA_REQUIRED}:`)) {
    return { mfaRequired: true, mfaToken: error.slice(MFA_REQUIRED.length + 1) || undefined, message: '' };
  }
  if (error === 'CredentialsSignin') return { mfaRequired: false, message: 'Sign-in failed. Check your details and try again.' };
  return { mfaRequired: false, message: error };
}
