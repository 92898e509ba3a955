import * as z from '@/server/lib/zod';
import { isCalendarDate } from '@/server/domain/intake/shared/answers';

export const zDay = z
  .string()
  .refine((v) => isCalendarDate(v), 'must be a calendar date written YYYY-MM-DD')
  .meta({ description: 'YYYY-MM-DD, UTC, inclusive' });
