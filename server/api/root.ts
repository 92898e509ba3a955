import { developerRouter } from './routers/developer/router';
import { opsRouter } from './routers/ops/router';
import { authRouter } from './routers/auth/router';
import { usersRouter } from './routers/users/router';
import { eventsRouter } from './routers/events/router';
import { webhooksRouter } from './routers/webhooks/router';
import { router } from './trpc';

export const appRouter = router({
  developer: developerRouter,
  ops: opsRouter,
  auth: authRouter,
  users: usersRouter,
  webhooks: webhooksRouter,
  events: eventsRouter,
});
export type AppRouter = typeof appRouter;
