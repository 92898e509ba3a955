import { getServerSession } from 'next-auth';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { callApi } from './api';
import { authOptions } from './auth-options';

export const MODE_COOKIE = 'fr_mode';

export interface ConsoleMe {
  kind: 'user';
  mode: 'sandbox' | 'live';
  scopes: string[];
  tenant: { id: string; name: string; plan: string } | null;
  user: {
    id: string;
    email: string;
    name: string | null;
    role: string;
    mfaEnabled: boolean;
    provider: { npi: string | null; npiVerifiedAt: string | null; licensedStates: string[] } | null;
  };
}

/** The signed-in person for a console page, or a redirect to the sign-in page. */
export async function requireConsoleSession() {
  const session = await getServerSession(authOptions);
  const token = (session as { accessToken?: string } | null)?.accessToken;
  if (!token) redirect('/login');
  const mode = (await cookies()).get(MODE_COOKIE)?.value === 'live' ? 'live' : 'sandbox';
  const me = await callApi<ConsoleMe>('/auth/me', { token, mode }).catch(() => null);
  if (!me) redirect('/login');
  return { token, mode, me } as const;
}
