import { embedProcedure } from '@/server/api/procedures';
import { getPublicEmbedMeta, ZGetPublicEmbedRequest, ZGetPublicEmbedResponse } from './get-public-embed.types';

/** Patient-safe facts only: never the tenant, the key's name or its origins. */
export const getPublicEmbedRoute = embedProcedure
  .meta(getPublicEmbedMeta)
  .input(ZGetPublicEmbedRequest)
  .output(ZGetPublicEmbedResponse)
  .query(({ ctx }) => ({ livemode: ctx.embed.livemode, flowId: ctx.embed.flowId, questionnaireKeys: [...ctx.embed.questionnaireKeys] }));
