import { publicProcedure } from '@/server/api/procedures';
import { publishedCertificateKeys } from '@/server/domain/intake/certificates';
import { getJwksMeta, ZGetJwksRequest, ZGetJwksResponse } from './get-jwks.types';

export const getJwksRoute = publicProcedure
  .meta(getJwksMeta)
  .input(ZGetJwksRequest)
  .output(ZGetJwksResponse)
  .query(async ({ ctx }) => {
    // Public keys only, and new ones are added long before anyone needs them: verifiers may cache.
    ctx.state.headers['Cache-Control'] = 'public, max-age=300';
    return publishedCertificateKeys(ctx.services.database.db);
  });
