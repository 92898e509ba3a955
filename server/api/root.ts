import { developerRouter } from './routers/developer/router';
import { opsRouter } from './routers/ops/router';
import { authRouter } from './routers/auth/router';
import { usersRouter } from './routers/users/router';
import { router } from './trpc';

export const appRouter = router({ developer: developerRouter, ops: opsRouter, auth: authRouter, users: usersRouter });
export type AppRouter = typeof appRouter;
