import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { logger } from '@/server/lib/logger';
import { consoleSecret, secureCookies, SESSION_MAX_AGE_S } from './jwt';
import { endApiSession, refreshed } from './refresh';
import { inviteSignIn, magicLinkSignIn, passwordSignIn, type ConsoleUser } from './sign-in';

/**
 * The console's session (next-auth v4, JWT strategy). Every sign-in step is a call to the public /v1/auth
 * API from here, on the server; the resulting API session (access token, refresh token, expiry) lives only
 * in next-auth's encrypted, HTTP-only cookie and is refreshed by the jwt callback when near expiry.
 */
export const authOptions: NextAuthOptions = {
  session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_S },
  // Read per request, so it follows the URL the running server was given (and names the cookie as jwt.ts does).
  get useSecureCookies() {
    return secureCookies();
  },
  // From the services the custom server built from its validated config, so next-auth never reads the environment for it.
  get secret() {
    return consoleSecret();
  },
  logger: {
    // Without NEXTAUTH_URL next-auth takes http://localhost:3000 as its own address. That is harmless here: the
    // console signs in and out with redirect: false and navigates by relative path, and useSecureCookies is set.
    warn: (code) => {
      if (code !== 'NEXTAUTH_URL') logger.warn({ code }, 'next-auth warning');
    },
  },
  pages: { signIn: '/login', error: '/login' },
  providers: [
    CredentialsProvider({
      id: 'password',
      name: 'E-mail and password',
      credentials: { email: { type: 'email' }, password: { type: 'password' }, code: { type: 'text' } },
      authorize: (c, req) => passwordSignIn(c ?? {}, req?.headers),
    }),
    CredentialsProvider({
      id: 'magic-link',
      name: 'Sign-in link',
      credentials: { token: { type: 'text' }, mfaToken: { type: 'text' }, code: { type: 'text' } },
      authorize: (c, req) => magicLinkSignIn(c ?? {}, req?.headers),
    }),
    CredentialsProvider({
      id: 'invite',
      name: 'Invitation',
      credentials: { token: { type: 'text' }, password: { type: 'password' } },
      authorize: (c) => inviteSignIn(c ?? {}),
    }),
  ],
  callbacks: {
    async jwt({ token, user }) {
      if (user) {
        const u = user as ConsoleUser;
        return { sub: u.id, email: u.email, name: u.name, accessToken: u.accessToken, refreshToken: u.refreshToken, expiresAt: u.expiresAt, signedInAt: Date.now() };
      }
      return refreshed(token);
    },
    // The browser's view of the session: who is signed in. The API tokens stay in the encrypted cookie.
    async session({ session, token }) {
      return { ...session, user: { email: token.email, name: token.name }, error: token.error };
    },
  },
  events: {
    signOut: ({ token }) => endApiSession(token),
  },
};
