import { router } from '@/server/api/trpc';
import { getPublicEmbedRoute } from './get-public-embed';

export const publicEmbedRouter = router({
  getPublicEmbed: getPublicEmbedRoute,
});
