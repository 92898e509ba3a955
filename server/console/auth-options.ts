import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { callApi } from './api';

interface Tokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

interface Me {
  user: { id: string; email: string; name: string | null } | null;
}

// Refresh a minute early so a page render never starts with a token about to lapse.
const EARLY_MS = 60_000;

/**
 * next-auth holds the console session; the sign-in steps themselves (password, TOTP, magic link,
 * invitation) are the public /v1/auth endpoints, and the resulting API session is handed to this provider,
 * which accepts it only after the API confirms it belongs to a user.
 */
export const authOptions: NextAuthOptions = {
  session: { strategy: 'jwt', maxAge: 12 * 3600 },
  pages: { signIn: '/login' },
  providers: [
    CredentialsProvider({
      id: 'api-session',
      name: 'Fulfillment Rail',
      credentials: { accessToken: { type: 'text' }, refreshToken: { type: 'text' } },
      async authorize(credentials) {
        if (!credentials?.accessToken || !credentials.refreshToken) return null;
        const me = await callApi<Me>('/auth/me', { token: credentials.accessToken }).catch(() => null);
        if (!me?.user) return null;
        return {
          id: me.user.id,
          email: me.user.email,
          name: me.user.name,
          accessToken: credentials.accessToken,
          refreshToken: credentials.refreshToken,
          expiresAt: Date.now() + 14 * 60_000,
        };
      },
    }),
  ],
  callbacks: {
    async jwt({ token, user }) {
      if (user) return { ...token, ...(user as unknown as Record<string, unknown>) };
      if (typeof token.expiresAt === 'number' && Date.now() < token.expiresAt - EARLY_MS) return token;
      try {
        const fresh = await callApi<Tokens>('/auth/refresh', { body: { refreshToken: token.refreshToken } });
        return { ...token, accessToken: fresh.accessToken, refreshToken: fresh.refreshToken, expiresAt: Date.now() + fresh.expiresIn * 1000 };
      } catch {
        return { ...token, accessToken: undefined, error: 'RefreshFailed' };
      }
    },
    async session({ session, token }) {
      return { ...session, accessToken: token.accessToken as string | undefined, refreshToken: token.refreshToken as string | undefined };
    },
  },
};
