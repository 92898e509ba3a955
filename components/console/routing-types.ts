import type { RoutingStrategy } from './pharmacy-types';

/** The answer of POST /v1/orders/routing/plan (see server/api/routers/orders/routing-plan.types.ts). */
export interface RoutingChoice {
  connectionId: string;
  name: string;
  catalogId: string;
  itemCode: string;
  priceCents: number;
  etaDays: number;
  stock: number;
}

export interface RoutingIneligible {
  connectionId: string;
  name: string;
  reason: string;
  explanation: string;
}

export interface RoutedLine {
  index: number;
  productId: string;
  chosen: RoutingChoice;
  reason: string;
  explanation: string;
  alternatives: (RoutingChoice & { rank: number })[];
  ineligible: RoutingIneligible[];
}

export interface UnfillableLine {
  index: number;
  productId: string;
  reason: string;
  explanation: string;
  ineligible: RoutingIneligible[];
}

export interface RoutingPlan {
  strategy: RoutingStrategy;
  requireStateLicense: boolean;
  allowFallback: boolean;
  patientState: string | null;
  stateChecked: boolean;
  lines: RoutedLine[];
  unfillable: UnfillableLine[];
  totalPriceCents: number;
}
