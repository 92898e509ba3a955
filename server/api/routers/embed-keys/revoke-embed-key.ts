import { keyOrUserProcedure } from '@/server/api/procedures';
import { revokeEmbedKey } from '@/server/domain/embed/keys';
import { revokeEmbedKeyMeta, ZRevokeEmbedKeyRequest, ZRevokeEmbedKeyResponse } from './revoke-embed-key.types';

export const revokeEmbedKeyRoute = keyOrUserProcedure
  .meta(revokeEmbedKeyMeta)
  .input(ZRevokeEmbedKeyRequest)
  .output(ZRevokeEmbedKeyResponse)
  .mutation(({ ctx, input }) => revokeEmbedKey(ctx.services.database.db, ctx.principal, input.id));
