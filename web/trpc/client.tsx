'use client';

import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import { useState } from 'react';
import type { AppRouter } from '@/server/api/root';
import type { ErrorData } from '@/server/api/trpc';
import { MODE_COOKIE, modeOf, type Mode } from '@/server/api/console-mode';
import { makeQueryClient } from './query-client';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export type { Mode };

/** The console's mode, as the mode switch last set it (the server components read the same cookie). */
export function currentMode(): Mode {
  if (typeof document === 'undefined') return 'sandbox';
  return modeOf(document.cookie.split('; ').find((c) => c.startsWith(`${MODE_COOKIE}=`))?.slice(MODE_COOKIE.length + 1));
}

/** Switches mode: sandbox and live data are disjoint, so nothing cached in one may show in the other. */
export function switchMode(next: Mode): void {
  const secure = window.location.protocol === 'https:' ? '; secure' : '';
  document.cookie = `${MODE_COOKIE}=${next}; path=/; samesite=lax${secure}`;
  browserQueryClient?.removeQueries();
}

let browserQueryClient: QueryClient | undefined;
function queryClient(): QueryClient {
  if (typeof window === 'undefined') return makeQueryClient();
  return (browserQueryClient ??= makeQueryClient());
}

/**
 * The session's access token stays in next-auth's HTTP-only cookie: /api/trpc reads it there when the call
 * carries the console's header. When the token has lapsed (401), asking next-auth for the session refreshes
 * the cookie, and the call is sent once more; a second 401 means the session is over.
 */
async function consoleFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const res = await fetch(input, { ...init, credentials: 'same-origin' });
  if (res.status !== 401) return res;
  await fetch('/api/auth/session', { credentials: 'same-origin' }).catch(() => undefined);
  const retried = await fetch(input, { ...init, credentials: 'same-origin' });
  if (retried.status === 401 && typeof window !== 'undefined') window.location.assign('/login');
  return retried;
}

/** The console's data layer: React Query with the typed tRPC client, in the mode the console is switched to. */
export function ConsoleDataProvider({ children }: { children: React.ReactNode }) {
  const client = queryClient();
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [httpBatchLink({ url: '/api/trpc', headers: () => ({ 'x-trpc-source': 'console', 'x-mode': currentMode() }), fetch: consoleFetch })],
    }),
  );
  return (
    <QueryClientProvider client={client}>
      <TRPCProvider trpcClient={trpcClient} queryClient={client}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}

/** What the API said about a failed call: its message, code, field and request id (the envelope's fields). */
export function apiErrorOf(error: unknown): { message: string; data?: ErrorData } {
  if (error instanceof TRPCClientError) return { message: error.message, data: error.data as ErrorData | undefined };
  return { message: error instanceof Error ? error.message : 'Something went wrong.' };
}
