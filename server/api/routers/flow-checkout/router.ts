import { router } from '@/server/api/trpc';
import { receiveCheckoutCallbackRoute } from './receive-callback';

export const flowCheckoutRouter = router({ receiveCallback: receiveCheckoutCallbackRoute });
