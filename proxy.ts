import { NextResponse, type NextRequest } from 'next/server';
import { decodeSession, encodeSession, readSessionCookie, secureCookies, SESSION_MAX_AGE_S, sessionCookieName } from '@/web/console/jwt';
import { needsRefresh, refreshed } from '@/web/console/refresh';

/**
 * Keeps the console's API session fresh. Server components cannot set cookies, so a refresh done while
 * rendering would be lost (and the rotated-away refresh token, presented again, would revoke the session).
 * Here, before rendering, the jwt callback's refresh runs once and its result is both written to the browser
 * and handed to this request's render.
 */
export async function proxy(req: NextRequest) {
  const name = sessionCookieName();
  const token = await decodeSession(readSessionCookie(req.cookies.getAll(), name));
  if (!token || !needsRefresh(token)) return NextResponse.next();

  const next = await refreshed(token);
  if (next === token) return NextResponse.next(); // the API was unreachable: keep the cookie, try again next time
  const stale = req.cookies.getAll().filter((c) => c.name === name || c.name.startsWith(`${name}.`));
  for (const c of stale) req.cookies.delete(c.name);
  if (next.accessToken) req.cookies.set(name, await encodeSession(next));
  const res = NextResponse.next({ request: { headers: req.headers } });
  for (const c of stale) if (c.name !== name) res.cookies.delete(c.name);
  if (next.accessToken) {
    res.cookies.set(name, req.cookies.get(name)!.value, { httpOnly: true, sameSite: 'lax', path: '/', secure: secureCookies(), maxAge: SESSION_MAX_AGE_S });
  } else {
    res.cookies.delete(name);
  }
  return res;
}

export const config = {
  // Pages only: not next-auth's own routes (they refresh through the same callback), not static assets.
  matcher: ['/((?!api/auth|_next/static|_next/image|favicon.ico|v1/).*)'],
};
