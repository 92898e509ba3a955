import * as z from '@/server/lib/zod';

const zConnectionId = z.string().meta({ description: 'Pharmacy connection id' });

const ZChoice = z
  .object({
    connectionId: zConnectionId,
    name: z.string().meta({ description: 'Pharmacy name' }),
    catalogId: z.string().meta({ description: 'The approved catalog the price comes from' }),
    itemCode: z.string().meta({ description: "The pharmacy's item code" }),
    priceCents: z.number().int().meta({ description: 'Unit price in cents' }),
    etaDays: z.number().int().meta({ description: 'Days to delivery' }),
    stock: z.number().int().meta({ description: 'Units in stock' }),
  })
  .meta({ id: 'RoutingChoice' });

const ZIneligible = z
  .object({
    connectionId: zConnectionId,
    name: z.string().meta({ description: 'Pharmacy name' }),
    reason: z.enum(['disabled', 'not_in_catalog', 'state_not_served', 'out_of_stock']).meta({ description: 'Why this pharmacy cannot fill the line' }),
    explanation: z.string().meta({ description: 'The reason in words' }),
  })
  .meta({ id: 'RoutingIneligible' });

const lineBase = {
  index: z.number().int().meta({ description: 'Position of the line in the request items' }),
  productId: z.string().meta({ description: 'The product of the line' }),
  ineligible: z.array(ZIneligible).meta({ description: 'Every connected pharmacy that does not qualify, and why' }),
};

export const ZRoutedLine = z
  .object({
    ...lineBase,
    chosen: ZChoice.meta({ description: 'The pharmacy the line goes to' }),
    reason: z.enum(['lowest_cost', 'fastest', 'priority', 'manual', 'fallback']).meta({
      description: 'The policy strategy that chose it, `manual` when pinned, `fallback` when the pinned pharmacy could not fill it',
    }),
    explanation: z.string().meta({ description: 'Why this pharmacy, in words' }),
    alternatives: z
      .array(ZChoice.extend({ rank: z.number().int().meta({ description: 'Rank among qualifying pharmacies (the chosen one is 1)' }) }))
      .meta({ description: 'The other qualifying pharmacies, best first' }),
  })
  .meta({ id: 'RoutedLine' });

export const ZUnfillableLine = z
  .object({
    ...lineBase,
    reason: z.enum(['no_qualifying_pharmacy', 'manual_connection_ineligible', 'product_inactive']).meta({ description: 'Why nobody can fill the line' }),
    explanation: z.string().meta({ description: 'The reason in words' }),
  })
  .meta({ id: 'UnfillableLine' });

export const ZRoutingPlan = z
  .object({
    object: z.literal('routing_plan').meta({ description: 'Always `routing_plan`' }),
    livemode: z.boolean().meta({ description: 'The mode planned in' }),
    strategy: z.enum(['priority', 'lowest_cost', 'fastest']).meta({ description: "The routing policy's strategy" }),
    requireStateLicense: z.boolean().meta({ description: "Whether the policy requires shipping to the patient's state" }),
    allowFallback: z.boolean().meta({ description: 'Whether pinned lines may fall back' }),
    patientState: z.string().nullable().meta({ description: "The patient's state used, or null when unknown" }),
    stateChecked: z.boolean().meta({ description: 'True when pharmacies were filtered by the patient’s state' }),
    lines: z.array(ZRoutedLine).meta({ description: 'Lines that can be filled, in request order' }),
    unfillable: z.array(ZUnfillableLine).meta({ description: 'Lines nobody can fill, and why' }),
    totalPriceCents: z.number().int().meta({ description: 'Sum of the chosen unit prices' }),
  })
  .meta({ id: 'RoutingPlan' });
