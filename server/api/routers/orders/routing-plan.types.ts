import * as z from '@/server/lib/zod';
import { zDateTime } from '@/server/api/schemas/common';

const zConnectionId = z.string().meta({ description: 'Pharmacy connection id' });
const INELIGIBLE = ['disabled', 'not_in_catalog', 'state_not_served', 'out_of_stock', 'already_tried'] as const;
const zIneligibleReason = z.enum(INELIGIBLE).meta({ description: 'Why the pharmacy cannot fill it (`already_tried`: a reroute left it out)' });

/** A pharmacy priced for the whole order; shared by the plan and the order's stored routing. */
export const ZRoutingCandidate = z
  .object({
    connectionId: zConnectionId,
    name: z.string().meta({ description: 'Pharmacy name' }),
    priceCents: z.number().int().meta({ description: "The whole order's price at this pharmacy (unit price × quantity, summed)" }),
    etaDays: z.number().int().meta({ description: "Days to delivery of the order's slowest line" }),
  })
  .meta({ id: 'RoutingCandidate' });

const ZCandidate = ZRoutingCandidate.extend({ stock: z.number().int().meta({ description: "The lowest stock among the order's lines" }) });
const zRank = z.number().int().meta({ description: 'Rank among the pharmacies that can fill every line (the chosen one is 1)' });

export const ZRoutingIneligible = z
  .object({
    connectionId: zConnectionId,
    name: z.string().meta({ description: 'Pharmacy name' }),
    reason: zIneligibleReason,
    lines: z
      .array(z.object({ index: z.number().int(), productId: z.string(), reason: zIneligibleReason }))
      .meta({ description: 'Every line it cannot fill (by position in the items), and why' }),
  })
  .meta({ id: 'RoutingIneligible' });

const ZLineIneligible = z.object({
  connectionId: zConnectionId,
  name: z.string().meta({ description: 'Pharmacy name' }),
  reason: zIneligibleReason,
  explanation: z.string().meta({ description: 'The reason in words' }),
});

export const ZPlannedLine = z
  .object({
    index: z.number().int().meta({ description: 'Position of the line in the request items' }),
    productId: z.string().meta({ description: 'The product of the line' }),
    quantity: z.number().int().meta({ description: 'Units priced' }),
    fill: z
      .object({
        catalogId: z.string().meta({ description: 'The approved catalog the price comes from' }),
        itemCode: z.string().meta({ description: "The pharmacy's item code" }),
        unitPriceCents: z.number().int().meta({ description: 'Unit price in cents' }),
        priceCents: z.number().int().meta({ description: 'Unit price × quantity' }),
        etaDays: z.number().int().meta({ description: 'Days to delivery' }),
        stock: z.number().int().meta({ description: 'Units in stock' }),
      })
      .nullable()
      .meta({ description: "The line at the order's pharmacy; null when the order routes nowhere" }),
  })
  .meta({ id: 'PlannedLine' });

export const ZUnfillableLine = z
  .object({
    index: z.number().int().meta({ description: 'Position of the line in the request items' }),
    productId: z.string().meta({ description: 'The product of the line' }),
    reason: z.enum(['no_qualifying_pharmacy', 'product_inactive']).meta({ description: 'Why no pharmacy can fill the line' }),
    explanation: z.string().meta({ description: 'The reason in words' }),
    ineligible: z.array(ZLineIneligible).meta({ description: 'Every pharmacy judged for the line, and why it cannot fill it' }),
  })
  .meta({ id: 'UnfillableLine' });

export const zRouteReason = z
  .enum(['lowest_cost', 'fastest', 'priority', 'manual', 'rerouted', 'fallback', 'no_qualifying_pharmacy', 'manual_connection_ineligible'])
  .meta({
    description:
      'The policy strategy that chose the pharmacy; `manual` when chosen by hand (a pin, a reroute naming it), `rerouted` when kept from a reroute, `fallback` when the pharmacy asked for could not fill the order; `no_qualifying_pharmacy` or `manual_connection_ineligible` when none was chosen',
  });

export const ZRoutingPlan = z
  .object({
    object: z.literal('routing_plan').meta({ description: 'Always `routing_plan`' }),
    livemode: z.boolean().meta({ description: 'The mode planned in' }),
    wholeOrder: z.literal(true).meta({ description: 'Always true: an order goes whole to one pharmacy that can fill every line; it is never split' }),
    strategy: z.enum(['priority', 'lowest_cost', 'fastest']).meta({ description: "The routing policy's strategy" }),
    requireStateLicense: z.boolean().meta({ description: "Whether the policy requires shipping to the patient's state" }),
    allowFallback: z.boolean().meta({ description: 'Whether a pinned order may fall back to the policy’s choice' }),
    patientState: z.string().nullable().meta({ description: "The patient's state used, or null when unknown" }),
    stateChecked: z.boolean().meta({ description: 'True when pharmacies were filtered by the patient’s state' }),
    pharmacy: ZCandidate.nullable().meta({ description: 'The pharmacy the whole order would be dispatched to; null when none can fill it' }),
    reason: z.union([zRouteReason, z.literal('product_inactive')]).meta({ description: 'Why this pharmacy (or why none)' }),
    explanation: z.string().meta({ description: 'Why, in words' }),
    alternatives: z.array(ZCandidate.extend({ rank: zRank })).meta({ description: 'The other pharmacies that can fill every line, best first' }),
    ineligible: z.array(ZRoutingIneligible.extend({ explanation: z.string().meta({ description: 'The first reason in words' }) })).meta({ description: 'Every pharmacy that cannot fill the whole order, with each line it cannot fill' }),
    lines: z.array(ZPlannedLine).meta({ description: "Every line, in request order, as the order's pharmacy would fill it" }),
    unfillable: z.array(ZUnfillableLine).meta({ description: 'Lines no pharmacy can fill at all; any one keeps the order from routing' }),
    totalPriceCents: z.number().int().meta({ description: "The order's total at the chosen pharmacy (0 when none)" }),
  })
  .meta({ id: 'RoutingPlan' });

/** Why an order's pharmacy was chosen, as routing decided it (approval, reroute or submit); PHI-free. */
export const ZOrderRouting = z
  .object({
    decidedAt: zDateTime.meta({ description: 'When routing decided' }),
    reason: zRouteReason,
    strategy: z.enum(['priority', 'lowest_cost', 'fastest']).meta({ description: "The policy's strategy at the time" }),
    explanation: z.string().meta({ description: 'Why, in words' }),
    connectionId: zConnectionId.nullable().meta({ description: 'The pharmacy chosen; null when none could fill the order' }),
    priceCents: z.number().int().nullable().meta({ description: "The order's price there" }),
    etaDays: z.number().int().nullable().meta({ description: "Days to delivery of the order's slowest line there" }),
    stateChecked: z.boolean().meta({ description: "Whether pharmacies were filtered by the patient's state" }),
    alternatives: z.array(ZRoutingCandidate.extend({ rank: zRank })).meta({ description: 'The other pharmacies that could fill every line, best first' }),
    ineligible: z.array(ZRoutingIneligible).meta({ description: 'The pharmacies that could not, with each line they could not fill' }),
  })
  .meta({ id: 'OrderRouting' });
