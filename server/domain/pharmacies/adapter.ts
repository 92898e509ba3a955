import type { Db } from '@/server/db/types';
import { pharmacyAdapter, type AdapterName, type PharmacyAdapter } from '@/server/integrations/pharmacies';
import type { UrlPolicy } from '@/server/lib/ssrf';
import { simulatedBook } from './simulated-book';

/** A connection's adapter, with what the area provides it: the simulated pharmacy's book and the URL policy. */
export function adapterFor(db: Db, name: AdapterName, policy: UrlPolicy): PharmacyAdapter {
  return pharmacyAdapter(name, { book: simulatedBook(db), policy });
}
