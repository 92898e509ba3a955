import * as z from '@/server/lib/zod';
import { TENANT_ROLES } from '@/server/domain/auth/roles';

export const ZConsoleGrantsRequest = z.object({}).optional();
export const ZConsoleGrantsResponse = z.object({
  roles: z.array(z.enum(TENANT_ROLES)),
  keyScopes: z.array(z.string()),
  secretKeys: z.boolean(),
});
