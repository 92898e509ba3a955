import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import { MODE_COOKIE, modeOf } from '@/server/api/console-mode';
import { serverCaller } from '@/web/trpc/server';
import { decodeSession, readSessionCookie } from './jwt';
import type { ConsoleMe, Mode } from './types';


/** The console session of this request (already refreshed by proxy.ts when it was near expiry), or null. */
export const currentSession = cache(async () => decodeSession(readSessionCookie((await cookies()).getAll())));

export const currentMode = async (): Promise<Mode> => modeOf((await cookies()).get(MODE_COOKIE)?.value);

/**
 * The signed-in person for a console page, as `auth.me` answers in the chosen mode (through the server-side
 * caller, in this process); anyone else is sent to the sign-in page. Cached per request: the layout and the
 * page share one call.
 */
export const requireConsoleSession = cache(async () => {
  const session = await currentSession();
  const token = session?.accessToken;
  if (!token || (session.expiresAt ?? 0) <= Date.now()) redirect('/login');
  const mode = await currentMode();
  const answer = await (await serverCaller()).auth.me({}).catch(() => null);
  if (!answer?.user || answer.kind !== 'user') redirect('/login');
  const me: ConsoleMe = { ...answer, kind: 'user', user: answer.user };
  return { mode, me };
});
