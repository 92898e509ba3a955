import { authenticate } from './middlewares/authenticate';
import { requireOps, requireTenantScope } from './middlewares/authorize';
import { idempotency } from './middlewares/idempotency';
import { rateLimit } from './middlewares/rate-limit';
import { t } from './trpc';

export const publicProcedure = t.procedure;

const authedProcedure = t.procedure.use(authenticate).use(rateLimit);

/** A tenant's API key or user session, holding the scope in the procedure's meta. */
export const keyOrUserProcedure = authedProcedure.use(requireTenantScope).use(idempotency);

/** Platform operators only (`ops.*`). */
export const opsProcedure = authedProcedure.use(requireOps).use(idempotency);
