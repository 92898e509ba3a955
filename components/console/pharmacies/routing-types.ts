import type { z } from 'zod';
import type { ZRoutingPlan, ZUnfillableLine } from '@/server/api/routers/orders/routing-plan.types';

/** The answer of POST /v1/orders/routing/plan, as the API's own schema declares it. */
export type RoutingPlan = z.output<typeof ZRoutingPlan>;
export type UnfillableLine = z.output<typeof ZUnfillableLine>;
export type RoutingIneligible = RoutingPlan['ineligible'][number];
