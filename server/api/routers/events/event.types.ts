import * as z from '@/server/lib/zod';
import { zDateTime } from '@/server/api/schemas/common';

export const ZEvent = z
  .object({
    id: z.string(),
    type: z.string(),
    data: z.record(z.string(), z.unknown()).meta({ description: 'PHI-free: ids, statuses, verdicts and reason codes only' }),
    createdAt: zDateTime,
  })
  .meta({ id: 'Event' });

export const ZEventList = z
  .object({ object: z.literal('list'), data: z.array(ZEvent), has_more: z.boolean() })
  .meta({ id: 'EventList' });

export const ZReplayResult = z
  .object({
    replayedTo: z.number().int().meta({ description: 'Number of endpoints the event was queued to' }),
    note: z.string().optional().meta({ description: 'Present when nothing was replayed, saying why' }),
  })
  .meta({ id: 'ReplayResult' });
