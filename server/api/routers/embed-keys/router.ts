import { router } from '@/server/api/trpc';
import { createEmbedKeyRoute } from './create-embed-key';
import { getEmbedKeyRoute } from './get-embed-key';
import { listEmbedKeysRoute } from './list-embed-keys';
import { revokeEmbedKeyRoute } from './revoke-embed-key';
import { updateEmbedKeyRoute } from './update-embed-key';

export const embedKeysRouter = router({
  listEmbedKeys: listEmbedKeysRoute,
  createEmbedKey: createEmbedKeyRoute,
  getEmbedKey: getEmbedKeyRoute,
  updateEmbedKey: updateEmbedKeyRoute,
  revokeEmbedKey: revokeEmbedKeyRoute,
});
