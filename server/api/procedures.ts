import { authenticate } from './middlewares/authenticate';
import { requireApiKey, requireOps, requireProvider, requireTenantScope, requireUserSession } from './middlewares/authorize';
import { idempotency } from './middlewares/idempotency';
import { rateLimit } from './middlewares/rate-limit';
import { t } from './trpc';

/** No credential: sign-in and link flows, which mint fresh secrets and so are never replayed. */
export const publicProcedure = t.procedure;

/** Any valid credential: API key or user session, of a tenant or of the platform. */
export const authedProcedure = t.procedure.use(authenticate).use(rateLimit);

/** A tenant's API key or user session, holding the scope in the procedure's meta. */
export const keyOrUserProcedure = authedProcedure.use(requireTenantScope).use(idempotency);

/** A tenant's machine API key only (the event log); user sessions get 403. */
export const apiKeyProcedure = authedProcedure.use(requireTenantScope).use(requireApiKey).use(idempotency);

/** The signed-in person themself (MFA, logout); never an API key. */
export const userProcedure = authedProcedure.use(requireUserSession).use(idempotency);

/** Clinical approvals: only a verified, MFA-enrolled provider's own session. */
export const providerProcedure = authedProcedure.use(requireTenantScope).use(requireProvider).use(idempotency);

/** Platform operators only (`ops.*`). */
export const opsProcedure = authedProcedure.use(requireOps).use(idempotency);
