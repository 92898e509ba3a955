import * as z from '@/server/lib/zod';
import { REASON_CODE_PATTERN } from '@/server/lib/pharmacy-reason-codes';
import { NDC_INPUT, NDC_INPUT_RULE, normalizeNdc, RXCUI, RXCUI_RULE } from '@/server/lib/drug-codes';

export const ZCatalogFeedRow = z.strictObject({
  sku: z.string().min(1).max(100).meta({ description: "The clinic's product SKU (or product id) this row prices" }),
  itemCode: z.string().min(1).max(64).meta({ description: "The pharmacy's own item code" }),
  priceCents: z.number().int().min(0).max(10_000_000).meta({ description: 'Price in cents' }),
  stock: z.number().int().min(0).max(1_000_000_000).meta({ description: 'Units in stock' }),
  etaDays: z.number().int().min(0).max(365).meta({ description: 'Days from order to delivery' }),
  ndc: z
    .string()
    .regex(NDC_INPUT, `must be ${NDC_INPUT_RULE}`)
    .overwrite((v) => normalizeNdc(v) ?? v)
    .nullable()
    .optional()
    .meta({ description: 'National Drug Code of what the pharmacy dispenses for this row (10 digits with dashes, or 11); optional' }),
  rxcui: z.string().regex(RXCUI, `must be ${RXCUI_RULE}`).nullable().optional().meta({ description: 'RxNorm concept id (RxCUI) of it; optional' }),
});

const seconds = (fallback: number, description: string) => z.number().int().min(0).max(30 * 86_400).default(fallback).meta({ description });

export const ZSimulatedSettings = z
  .strictObject({
    behavior: z.enum(['accept', 'reject']).default('accept').meta({ description: 'Accept every order, or reject every order with `rejectReasonCode`' }),
    rejectReasonCode: z
      .string()
      .regex(REASON_CODE_PATTERN, 'must use only lowercase letters, digits and underscores')
      .default('prescription_invalid')
      .meta({ description: 'Reason code of a scripted rejection: one of the protocol vocabulary (docs/pharmacy-protocol.md), or any other code to rehearse an unknown one' }),
    acceptAfterSeconds: seconds(0, 'Seconds from receipt until the pharmacy accepts'),
    shipAfterSeconds: seconds(60, 'Seconds from receipt until it ships, with tracking'),
    deliverAfterSeconds: seconds(300, 'Seconds from receipt until it is delivered'),
    carrier: z.enum(['UPS', 'USPS', 'FedEx', 'DHL']).default('UPS').meta({ description: 'Carrier named on the tracking' }),
    outOfStock: z
      .array(z.string().min(1).max(100))
      .max(1000)
      .default([])
      .meta({ description: 'Product SKUs or ids the pharmacy rejects as `out_of_stock`' }),
    catalog: z.array(ZCatalogFeedRow).max(20_000).default([]).meta({ description: 'The price list that sync-catalog fetches' }),
  })
  .refine((s) => s.acceptAfterSeconds <= s.shipAfterSeconds && s.shipAfterSeconds <= s.deliverAfterSeconds, {
    message: 'must be at least shipAfterSeconds, and shipAfterSeconds at least acceptAfterSeconds',
    path: ['deliverAfterSeconds'],
  })
  .meta({ id: 'SimulatedPharmacySettings', description: 'Script of the built-in simulated pharmacy' });
export type SimulatedSettings = z.output<typeof ZSimulatedSettings>;

export const ZHttpSettings = z
  .strictObject({
    baseUrl: z.string().trim().min(1).max(2048).meta({ description: "The pharmacy's API base URL: https, public host (same rules as webhook URLs)", format: 'uri' }),
    timeoutMs: z.number().int().min(500).max(30_000).default(10_000).meta({ description: 'Per-request timeout in milliseconds' }),
  })
  .meta({ id: 'HttpPharmacySettings', description: 'Generic signed JSON-over-HTTPS pharmacy' });
