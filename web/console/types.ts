import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { AppRouter } from '@/server/api/root';

/** Shapes of the /v1/auth answers the console reads (see server/api/routers/auth/*.types.ts). */
export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
}

export type LoginAnswer = SessionTokens | { mfaRequired: true; mfaToken: string };

export type { Mode } from '@/server/api/console-mode';

/** What the console's procedures answer, inferred from the router: a page and its procedure cannot disagree. */
export type RouterOutputs = inferRouterOutputs<AppRouter>;
export type RouterInputs = inferRouterInputs<AppRouter>;

type Me = RouterOutputs['auth']['me'];
/** The signed-in person (console sessions are always a user's). */
export type ConsoleMe = Me & { kind: 'user'; user: NonNullable<Me['user']> };
