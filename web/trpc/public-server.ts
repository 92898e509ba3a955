import 'server-only';
import { headers } from 'next/headers';
import type { IncomingMessage } from 'node:http';
import { consoleForwardProof, FORWARDED_CLIENT_IP, FORWARD_PROOF } from '@/server/api/client-ip';
import type { Context } from '@/server/api/context';
import { appRouter } from '@/server/api/root';
import { processServices } from '@/server/api/process-services';
import { newId } from '@/server/lib/ids';

/**
 * The caller of patients' pages (`/i/{token}`, `/f/{embedKey}`, `/embed/frame`, `/p/{embedKey}`): no session and
 * no credential, the same procedures, limits and errors as /v1, in this process. The patient's address (set by the
 * custom server) travels with the proof that it was, so the per-address limit of the public paths counts the
 * patient, not the loopback. The portal's pages pass the signed-in patient's session token (`bearer`), which the
 * patient endpoints take.
 */
export async function publicCaller(bearer?: string) {
  const services = processServices();
  const h = await headers();
  const req = {
    headers: {
      [FORWARDED_CLIENT_IP]: h.get(FORWARDED_CLIENT_IP) ?? 'unknown',
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
