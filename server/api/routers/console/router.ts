import { router } from '@/server/api/trpc';
import { consoleBillingBannerRoute } from './billing-banner';
import { consoleListApiKeysRoute } from './console-api-keys';
import { consoleEventTypesRoute, consoleGetEventRoute, consoleListEventsRoute, consoleReplayEventRoute } from './console-events';
import { consoleOverviewRoute } from './overview-get';
import { consoleRoutedOrdersDailyRoute } from './overview-routed-daily';
import { consoleUsageRoutedDailyRoute } from './usage-routed-daily';
import { consoleDeclineOrderRoute } from './orders-decline';
import { consoleGrantsRoute } from './grants';
import { consoleQuestionnaireVersionsRoute } from './questionnaire-versions';
import { consoleIntakeSubmissionRoute } from './intake-submission';
import { consoleIntakeSubmissionsRoute } from './intake-submissions';
import { consoleApprovalQueueRoute, consoleListOrdersRoute, consoleOrderNamesRoute, consoleOrderStatusesRoute } from './orders-views';

/** Procedures only the console calls, over /api/trpc; none has an OpenAPI operation, so /v1 never serves them. */
export const consoleRouter = router({
  listEvents: consoleListEventsRoute,
  getEvent: consoleGetEventRoute,
  replayEvent: consoleReplayEventRoute,
  eventTypes: consoleEventTypesRoute,
  overview: consoleOverviewRoute,
  routedOrdersDaily: consoleRoutedOrdersDailyRoute,
  usageRoutedDaily: consoleUsageRoutedDailyRoute,
  listApiKeys: consoleListApiKeysRoute,
  listOrders: consoleListOrdersRoute,
  approvalQueue: consoleApprovalQueueRoute,
  orderNames: consoleOrderNamesRoute,
  orderStatuses: consoleOrderStatusesRoute,
  declineOrder: consoleDeclineOrderRoute,
  grants: consoleGrantsRoute,
  questionnaireVersions: consoleQuestionnaireVersionsRoute,
  intakeSubmission: consoleIntakeSubmissionRoute,
  intakeSubmissions: consoleIntakeSubmissionsRoute,
  billingBanner: consoleBillingBannerRoute,
});
