'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '@/web/trpc/client';
import { LIST_INPUT } from '../catalog/catalog-types';
import { Loading, QueryError } from '../ui/query-state';
import { RoutingPlanPreview } from './routing-plan-preview';
import { RoutingPolicyEditor } from './routing-policy-editor';

/** The policy and the preview side by side: saving the policy re-runs the preview. */
export function RoutingWorkbench({ usStates, canReadPatients }: { usStates: readonly string[]; canReadPatients: boolean }) {
  const trpc = useTRPC();
  const policy = useQuery(trpc.pharmacies.getRoutingPolicy.queryOptions({}));
  const pharmacies = useQuery(trpc.pharmacies.listPharmacies.queryOptions(LIST_INPUT));
  const products = useQuery(trpc.products.listProducts.queryOptions(LIST_INPUT));
  const [policyVersion, setPolicyVersion] = useState(0);
  const failed = [policy, pharmacies, products].find((q) => q.isError);
  if (failed) return <QueryError error={failed.error} title="The routing settings could not be read." />;
  if (!policy.data || !pharmacies.data || !products.data) return <Loading label="Loading routing settings…" />;
  return (
    <div className="space-y-6">
      <RoutingPolicyEditor policy={policy.data} pharmacies={pharmacies.data} onSaved={() => setPolicyVersion((v) => v + 1)} />
      <RoutingPlanPreview products={products.data} pharmacies={pharmacies.data} usStates={usStates} canReadPatients={canReadPatients} policyVersion={policyVersion} />
    </div>
  );
}
