import { developerRouter } from './routers/developer/router';
import { opsRouter } from './routers/ops/router';
import { router } from './trpc';

export const appRouter = router({ developer: developerRouter, ops: opsRouter });
export type AppRouter = typeof appRouter;
