'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiErrorOf, useTRPC, useTRPCClient } from '@/web/trpc/client';

/** After any change to an order: every list, queue and detail that may show it is read again. */
export function useOrdersChanged() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: trpc.orders.ordersWithNames.queryKey() }),
      qc.invalidateQueries({ queryKey: trpc.orders.approvalQueue.queryKey() }),
      qc.invalidateQueries({ queryKey: trpc.orders.getOrder.queryKey() }),
    ]);
}

/** The API's own words for a session that is no provider's (provider_required). */
const NOT_A_PROVIDER = 'Only a licensed provider signed in with their own account can do this.';

/**
 * Why the signed-in person cannot approve an order for a patient in `state`, or null when they can, as the
 * API's provider check answers (POST /auth/provider-check; its 403 says why a session is no provider's).
 * `state` null: the patient has no shipping address; undefined: this page may not see the patient.
 */
export function useApprovalBlock(state: string | null | undefined, isProvider = true): { reason: string | null; checking: boolean } {
  const client = useTRPCClient();
  const check = useQuery({
    queryKey: ['auth.providerCheck', state],
    // A POST (the check is per request, never cached by the API), asked once per state per page; only of a
    // provider: anyone else would get its 403 (and a failed request in the browser console) to learn what we know.
    queryFn: () => client.auth.providerCheck.mutate({ state: state! }),
    enabled: typeof state === 'string' && isProvider,
    retry: false,
    staleTime: 60_000,
  });
  if (!isProvider) return { reason: NOT_A_PROVIDER, checking: false };
  if (state === undefined) return { reason: 'Approving is for a provider, who sees the patient’s state; your role does not.', checking: false };
  if (state === null) return { reason: 'The patient has no shipping address, so the license cannot be checked.', checking: false };
  if (check.isPending) return { reason: null, checking: true };
  if (check.isError) return { reason: apiErrorOf(check.error).message, checking: false };
  return { reason: check.data.authorized ? null : check.data.reason, checking: false };
}

/** The id prefixes the console can name: people, keys, and the clinic's flows, pharmacies, products, protocols, experiments. */
export const NAMED_PREFIXES = ['usr_', 'key_', 'flw_', 'phc_', 'prd_', 'prt_', 'exp_'] as const;
export const isNameable = (id: string) => NAMED_PREFIXES.some((p) => id.startsWith(p));

/** Names of the people, keys and objects behind ids; ids with no name found are left out of the map. */
export function useNames(ids: (string | null | undefined)[]) {
  const trpc = useTRPC();
  const wanted = [...new Set(ids.filter((id): id is string => !!id && isNameable(id)))].sort().slice(0, 100);
  const names = useQuery({ ...trpc.orders.actorNames.queryOptions({ ids: wanted }), enabled: wanted.length > 0, staleTime: 300_000 });
  return new Map((names.data ?? []).map((n) => [n.id, n]));
}
