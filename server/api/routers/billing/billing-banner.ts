import { sessionProcedure } from '@/server/api/procedures';
import { readBillingBanner } from '@/server/domain/billing/banner';
import { ZConsoleBillingBannerRequest, ZConsoleBillingBannerResponse } from './billing-banner.types';

/** The console shell's billing banner: any signed-in role of the tenant, its own tenant only. */
export const consoleBillingBannerRoute = sessionProcedure
  .input(ZConsoleBillingBannerRequest)
  .output(ZConsoleBillingBannerResponse)
  .query(({ ctx }) => readBillingBanner(ctx.services.database.db, { tenantId: ctx.principal.tenantId, livemode: ctx.principal.livemode }));
