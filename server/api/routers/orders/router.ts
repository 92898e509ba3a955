import { router } from '@/server/api/trpc';
import { planRoutingRoute } from './plan-routing';

// Fixed paths (`/orders/routing/plan`) come before the `{id}` paths: the first matching path wins.
export const ordersRouter = router({
  planRouting: planRoutingRoute,
});
