import type { Scope } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import type { Principal } from '@/server/domain/auth/principal';
import { catalogFromFeed } from '@/server/domain/catalog/catalogs';
import { PharmacyUnavailable } from '@/server/integrations/pharmacies';
import { adapterFor } from './adapter';
import { AppError } from '@/server/lib/errors';
import { logger } from '@/server/lib/logger';
import { scrubText } from '@/server/lib/log-scrub';
import type { UrlPolicy } from '@/server/lib/ssrf';
import { forAdapter, requireConnection } from './connections';

/** Fetches the pharmacy's price list through its adapter into a new pending catalog awaiting review. */
export async function syncCatalog(db: Db, principal: Principal & Scope, id: string, policy: UrlPolicy) {
  const connection = await requireConnection(db, principal, id);
  let rows;
  try {
    rows = await adapterFor(db, connection.adapter, policy).fetchCatalog(forAdapter(connection));
  } catch (err) {
    if (err instanceof PharmacyUnavailable) {
      // The one line an outage leaves (the request is answered 503 and recorded at info); the message names no patient.
      logger.warn({ connectionId: connection.id, adapter: connection.adapter, reason: scrubText(err.message) }, 'pharmacy catalog fetch failed');
      throw new AppError('service_unavailable', 'pharmacy_unavailable', 503, `The pharmacy's catalog could not be fetched: ${err.message}`);
    }
    throw err;
  }
  return catalogFromFeed(db, principal, connection.id, rows);
}
