import 'server-only';
import { headers } from 'next/headers';
import { publicCaller } from '@/web/trpc/public-server';
import { patientTokenOf } from '@/server/lib/portal-cookie';
import { portalReads } from './portal-reads';

/**
 * The portal's reads for a page Next.js renders (in development; the custom server renders them otherwise, see
 * app/_patient-pages/): the patient's address the custom server put on the request, and the session cookie.
 */
export async function portalReadsOfRequest() {
  return portalReads(publicCaller, patientTokenOf((await headers()).get('cookie') ?? undefined));
}
