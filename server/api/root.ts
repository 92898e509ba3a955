import { developerRouter } from './routers/developer/router';
import { opsRouter } from './routers/ops/router';
import { authRouter } from './routers/auth/router';
import { usersRouter } from './routers/users/router';
import { eventsRouter } from './routers/events/router';
import { webhooksRouter } from './routers/webhooks/router';
import { productsRouter } from './routers/products/router';
import { protocolsRouter } from './routers/protocols/router';
import { patientsRouter } from './routers/patients/router';
import { pharmaciesRouter } from './routers/pharmacies/router';
import { catalogsRouter } from './routers/catalogs/router';
import { ordersRouter } from './routers/orders/router';
import { pharmacyCallbacksRouter } from './routers/pharmacy-callbacks/router';
import { flowCheckoutRouter } from './routers/flow-checkout/router';
import { certificatesRouter } from './routers/certificates/router';
import { overviewRouter } from './routers/overview/router';
import { intakeRouter } from './routers/intake/router';
import { embedKeysRouter } from './routers/embed-keys/router';
import { publicEmbedRouter } from './routers/public-embed/router';
import { flowsRouter } from './routers/flows/router';
import { experimentsRouter } from './routers/experiments/router';
import { flowAnalyticsRouter } from './routers/flow-analytics/router';
import { publicFlowsRouter } from './routers/public-flows/router';
import { billingRouter } from './routers/billing/router';
import { noticesRouter } from './routers/notices/router';
import { publicPatientsRouter } from './routers/public-patients/router';
import { patientRouter } from './routers/patient/router';
import { router } from './trpc';

export const appRouter = router({
  developer: developerRouter,
  ops: opsRouter,
  auth: authRouter,
  users: usersRouter,
  webhooks: webhooksRouter,
  events: eventsRouter,
  patients: patientsRouter,
  products: productsRouter,
  protocols: protocolsRouter,
  catalogs: catalogsRouter,
  pharmacies: pharmaciesRouter,
  orders: ordersRouter,
  pharmacyCallbacks: pharmacyCallbacksRouter,
  // Before `flows` and `flowAnalytics`: /flows/checkout-callbacks/{flowId} is matched ahead of /flows/{id}/…
  // (scripts/redocly/.redocly.lint-ignore.yaml lists the overlaps).
  flowCheckout: flowCheckoutRouter,
  certificates: certificatesRouter,
  overview: overviewRouter,
  intake: intakeRouter,
  embedKeys: embedKeysRouter,
  publicEmbed: publicEmbedRouter,
  flows: flowsRouter,
  publicFlows: publicFlowsRouter,
  flowAnalytics: flowAnalyticsRouter,
  experiments: experimentsRouter,
  billing: billingRouter,
  notices: noticesRouter,
  publicPatients: publicPatientsRouter,
  patient: patientRouter,
});
export type AppRouter = typeof appRouter;
