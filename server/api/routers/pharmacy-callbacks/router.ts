import { router } from '@/server/api/trpc';
import { getPharmacyProtocolRoute } from './get-pharmacy-protocol';
import { receiveCallbackRoute } from './receive-callback';
import { receiveCheckCallbackRoute } from './receive-check-callback';

/** What a pharmacy calls: its status callbacks (for orders, and for a protocol check's test order), and the protocol it implements. */
export const pharmacyCallbacksRouter = router({
  receiveCallback: receiveCallbackRoute,
  receiveCheckCallback: receiveCheckCallbackRoute,
  getPharmacyProtocol: getPharmacyProtocolRoute,
});
