'use client';

import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '@/web/trpc/client';
import type { FlowOption } from './embed-key-form';

/** The flows an embed key may serve: the mode's unarchived flows (an archived one's key would answer 404). */
export function useFlowOptions(): FlowOption[] {
  const trpc = useTRPC();
  const flows = useQuery(trpc.flows.list.queryOptions({}));
  return (flows.data ?? []).filter((f) => f.status === 'active').map((f) => ({ id: f.id, name: f.name }));
}
