import { router } from '@/server/api/trpc';
import { getJwksRoute } from './get-jwks';

export const certificatesRouter = router({ getJwks: getJwksRoute });
