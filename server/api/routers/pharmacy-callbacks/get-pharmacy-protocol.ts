import { publicProcedure } from '@/server/api/procedures';
import { buildPharmacyProtocolDocument } from '@/server/integrations/pharmacies/protocol/openapi';
import { getPharmacyProtocolMeta, ZGetPharmacyProtocolRequest, ZGetPharmacyProtocolResponse } from './get-pharmacy-protocol.types';

// Built once: it depends on the code only.
let document: ReturnType<typeof buildPharmacyProtocolDocument> | undefined;

export const getPharmacyProtocolRoute = publicProcedure
  .meta(getPharmacyProtocolMeta)
  .input(ZGetPharmacyProtocolRequest)
  .output(ZGetPharmacyProtocolResponse)
  .query(({ ctx }) => {
    // Holds nothing of any clinic's: tools may cache it.
    ctx.state.headers['Cache-Control'] = 'public, max-age=300';
    document ??= buildPharmacyProtocolDocument();
    return document;
  });
