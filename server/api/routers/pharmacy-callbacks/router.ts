import { router } from '@/server/api/trpc';
import { receiveCallbackRoute } from './receive-callback';

export const pharmacyCallbacksRouter = router({ receiveCallback: receiveCallbackRoute });
