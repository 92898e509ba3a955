import 'server-only';
import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import { createTRPCOptionsProxy } from '@trpc/tanstack-react-query';
import { cookies } from 'next/headers';
import { cache } from 'react';
import type { IncomingMessage } from 'node:http';
import type { Context } from '@/server/api/context';
import { appRouter } from '@/server/api/root';
import { processServices } from '@/server/api/process-services';
import { newId } from '@/server/lib/ids';
import { decodeSession, readSessionCookie } from '@/web/console/jwt';
import { MODE_COOKIE, modeOf } from '@/server/api/console-mode';
import { makeQueryClient } from './query-client';

export const getQueryClient = cache(makeQueryClient);

/**
 * The context a server component's calls run in: the same services, credential resolution, scopes and rate
 * limits as /api/trpc, in this process (no loopback HTTP). The credential is the session in the request's
 * cookie; the mode is the console's mode cookie.
 */
export const consoleContext = cache(async (): Promise<Context> => {
  const jar = await cookies();
  const session = await decodeSession(readSessionCookie(jar.getAll()));
  const headers: IncomingMessage['headers'] = { 'x-mode': modeOf(jar.get(MODE_COOKIE)?.value) };
  if (session?.accessToken) headers.authorization = `Bearer ${session.accessToken}`;
  const req = { headers, method: 'POST', url: '/api/trpc', socket: { remoteAddress: '127.0.0.1' } } as unknown as IncomingMessage;
  const requestId = newId('request');
  return { services: processServices(), req, transport: 'trpc', state: { requestId, method: 'POST', path: '/api/trpc', rawBody: '', headers: {} } };
});

/** Typed query options for prefetching in server components. */
export const trpcServer = createTRPCOptionsProxy({ router: appRouter, ctx: consoleContext, queryClient: getQueryClient });

/** Direct calls from server components (the layout's session check). */
export const serverCaller = cache(async () => appRouter.createCaller(await consoleContext()));

/** Hands what the server prefetched to the client's React Query cache. */
export function HydrateClient({ children }: { children: React.ReactNode }) {
  return <HydrationBoundary state={dehydrate(getQueryClient())}>{children}</HydrationBoundary>;
}
