import type { IncomingMessage } from 'node:http';
import { consoleForwardProof, FORWARDED_CLIENT_IP, FORWARD_PROOF } from '@/server/api/client-ip';
import type { Context, Services } from '@/server/api/context';
import { appRouter } from '@/server/api/root';
import { newId } from '@/server/lib/ids';

/**
 * The in-process caller of patients' pages: no session and no credential, the same procedures, limits and errors
 * as /v1. The patient's address (set by the custom server) travels with the proof that it was, so the per-address
 * limit of the public paths counts the patient, not the loopback. `bearer` is a signed-in patient's session token.
 * Next.js's pages reach it through public-server.ts; the custom server's patient pages (app/_patient-pages/) directly.
 */
export function publicCallerOf(services: Services, clientIp: string | null, bearer?: string) {
  const req = {
    headers: {
      [FORWARDED_CLIENT_IP]: clientIp ?? 'unknown',
      [FORWARD_PROOF]: consoleForwardProof(services.auth.consoleSecret),
      // These pages are the service's own (decision 17: its origin always matches a key), also for live keys.
      origin: services.auth.publicUrl,
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    },
    method: 'GET',
    url: '/i',
    socket: { remoteAddress: '127.0.0.1' },
  } as unknown as IncomingMessage;
  const ctx: Context = { services, req, transport: 'trpc', state: { requestId: newId('request'), method: 'GET', path: '/i', rawBody: '', headers: {} } };
  return appRouter.createCaller(ctx);
}

/** The HTTP status an error of a server-side call maps to (the AppError it carries), or 500. */
export function statusOf(err: unknown): number {
  const cause = (err as { cause?: { status?: unknown } } | undefined)?.cause;
  return typeof cause?.status === 'number' ? cause.status : 500;
}
