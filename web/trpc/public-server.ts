import 'server-only';
import { headers } from 'next/headers';
import { FORWARDED_CLIENT_IP } from '@/server/api/client-ip';
import { processServices } from '@/server/api/process-services';
import { publicCallerOf } from './public-caller';

export { statusOf } from './public-caller';

/**
 * The caller of patients' pages rendered by Next.js (`/i/{token}`, `/p/{embedKey}`, and `/f/{embedKey}` and
 * `/embed/frame` in development): public-caller.ts with the address the custom server put on the request. The
 * portal's pages pass the signed-in patient's session token (`bearer`), which the patient endpoints take.
 */
export async function publicCaller(bearer?: string) {
  const h = await headers();
  return publicCallerOf(processServices(), h.get(FORWARDED_CLIENT_IP), bearer);
}
