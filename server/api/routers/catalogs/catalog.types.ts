import * as z from '@/server/lib/zod';
import { zDateTime } from '@/server/api/schemas/common';

const zStatus = z.enum(['pending', 'approved', 'rejected', 'superseded']).meta({
  description: '`pending` until reviewed; `approved` is the one list routing uses; `superseded` when a newer one was approved; `rejected`',
});

export const ZCatalog = z
  .object({
    id: z.string().meta({ description: 'Catalog id (cat_…)' }),
    object: z.literal('catalog').meta({ description: 'Always `catalog`' }),
    livemode: z.boolean().meta({ description: 'True for live, false for sandbox' }),
    pharmacyConnectionId: z.string().meta({ description: 'The pharmacy connection this price list belongs to' }),
    source: z.enum(['upload', 'sync']).meta({ description: '`upload` (CSV) or `sync` (fetched from the pharmacy)' }),
    status: zStatus,
    lineCount: z.number().int().meta({ description: 'Priced lines loaded' }),
    skippedCount: z.number().int().meta({ description: 'Synced rows skipped because no product has their SKU (always 0 for uploads)' }),
    rejectionReason: z.string().nullable().meta({ description: 'Why it was rejected, when rejected' }),
    createdAt: zDateTime,
    reviewedAt: zDateTime.nullable().meta({ description: 'When it was approved or rejected' }),
    reviewedBy: z.string().nullable().meta({ description: 'User or API key id that approved or rejected it' }),
  })
  .meta({ id: 'Catalog' });

export const ZCatalogLine = z
  .object({
    line: z.number().int().meta({ description: 'Line of the uploaded file (row number of a synced list)' }),
    productId: z.string().meta({ description: 'The product priced' }),
    sku: z.string().meta({ description: "The product's SKU" }),
    itemCode: z.string().meta({ description: "The pharmacy's item code" }),
    priceCents: z.number().int().meta({ description: 'Price in cents' }),
    stock: z.number().int().meta({ description: 'Units in stock' }),
    etaDays: z.number().int().meta({ description: 'Days from order to delivery' }),
  })
  .meta({ id: 'CatalogLine' });

export const ZCatalogWithLines = ZCatalog.extend({ lines: z.array(ZCatalogLine).meta({ description: 'Every line, in file order' }) }).meta({ id: 'CatalogWithLines' });
export const zCatalogStatus = zStatus;
