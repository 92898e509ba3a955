'use client';

import { useState } from 'react';
import type { Product } from './catalog-types';
import type { Patient } from './patient-types';
import type { Pharmacy, RoutingPolicy } from './pharmacy-types';
import { RoutingPlanPreview } from './routing-plan-preview';
import { RoutingPolicyEditor } from './routing-policy-editor';

/** The policy and the preview side by side: saving the policy re-runs the preview. */
export function RoutingWorkbench(props: {
  policy: RoutingPolicy;
  pharmacies: Pharmacy[];
  products: Product[];
  patients: Patient[];
  patientsRefused?: string;
  usStates: readonly string[];
  token: string;
  mode: string;
}) {
  const [policyVersion, setPolicyVersion] = useState(0);
  const { policy, ...preview } = props;
  return (
    <div className="space-y-6">
      <RoutingPolicyEditor policy={policy} pharmacies={preview.pharmacies} token={preview.token} mode={preview.mode} onSaved={() => setPolicyVersion((v) => v + 1)} />
      <RoutingPlanPreview {...preview} policyVersion={policyVersion} />
    </div>
  );
}
