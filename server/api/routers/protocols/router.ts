import { router } from '@/server/api/trpc';
import { createProtocolRoute } from './create-protocol';
import { listProtocolsRoute } from './list-protocols';
import { updateProtocolRoute } from './update-protocol';

export const protocolsRouter = router({
  listProtocols: listProtocolsRoute,
  createProtocol: createProtocolRoute,
  updateProtocol: updateProtocolRoute,
});
