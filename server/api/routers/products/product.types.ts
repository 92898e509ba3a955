import * as z from '@/server/lib/zod';
import { zDateTime } from '@/server/api/schemas/common';
import { PRODUCT_FORMS } from '@/server/domain/catalog/products';
import { NDC_INPUT, NDC_INPUT_RULE, RXCUI, RXCUI_RULE } from '@/server/lib/drug-codes';

const zName = z.string().trim().min(1).max(200).meta({ description: 'Display name, 1 to 200 characters (trimmed)' });
const zSku = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._-]+$/, 'must use only letters, digits, ".", "_" or "-"')
  .meta({ description: 'Stock-keeping unit, 1 to 64 of A-Z a-z 0-9 . _ -; unique per account and mode' });
const zForm = z.enum(PRODUCT_FORMS).meta({ description: 'Dosage form' });
const zStrength = z.string().trim().min(1).max(50).nullable().meta({ description: 'Strength as labelled, e.g. "2.5 mg" (up to 50 characters); null for none' });
const zRxRequired = z.boolean().meta({ description: 'Whether dispensing needs a prescription approved by a provider' });
const zActive = z.boolean().meta({ description: 'Inactive products stay on record but are not offered for new orders' });
const zDescription = z.string().trim().min(1).max(2000).nullable().meta({ description: 'Free-text description, up to 2000 characters; null for none' });
const zNdc = z
  .string()
  .trim()
  .regex(NDC_INPUT, `must be ${NDC_INPUT_RULE}`)
  .nullable()
  .meta({ description: 'National Drug Code: 10 digits with dashes (4-4-2, 5-3-2, 5-4-1) or 11 digits; stored as 11 digits 5-4-2; null for none' });
const zRxcui = z.string().trim().regex(RXCUI, `must be ${RXCUI_RULE}`).nullable().meta({ description: 'RxNorm concept id (RxCUI), digits; null for none' });

export const ZProduct = z
  .object({
    id: z.string().meta({ description: 'Product id (prd_…)' }),
    object: z.literal('product').meta({ description: 'Always "product"' }),
    livemode: z.boolean().meta({ description: 'True for a live-mode product, false for sandbox' }),
    name: z.string().meta({ description: 'Display name' }),
    sku: z.string().meta({ description: 'Stock-keeping unit, unique per account and mode' }),
    form: z.enum(PRODUCT_FORMS).meta({ description: 'Dosage form' }),
    strength: z.string().nullable().meta({ description: 'Strength as labelled, e.g. "2.5 mg"; null when not set' }),
    rxRequired: z.boolean().meta({ description: 'Whether dispensing needs a prescription approved by a provider' }),
    active: z.boolean().meta({ description: 'Whether the product is offered for new orders' }),
    description: z.string().nullable().meta({ description: 'Free-text description; null when not set' }),
    ndc: z.string().nullable().meta({ description: 'National Drug Code, 11 digits 5-4-2 (e.g. "00169-4132-12"); null when not set' }),
    rxcui: z.string().nullable().meta({ description: 'RxNorm concept id (RxCUI); null when not set' }),
    createdAt: zDateTime.meta({ description: 'When the product was created (ISO 8601, UTC)' }),
    updatedAt: zDateTime.meta({ description: 'When the product last changed (ISO 8601, UTC)' }),
  })
  .meta({ id: 'Product' });

export const ZProductList = z.array(ZProduct).meta({ description: 'Products, newest first' });

export const ZCreateProduct = z
  .strictObject({
    name: zName,
    sku: zSku,
    form: zForm,
    strength: zStrength.optional(),
    rxRequired: zRxRequired.default(true),
    active: zActive.default(true),
    description: zDescription.optional(),
    ndc: zNdc.optional(),
    rxcui: zRxcui.optional(),
  })
  .meta({ id: 'CreateProduct' });

export const ZUpdateProduct = z
  .strictObject({
    name: zName.optional(),
    sku: zSku.optional(),
    form: zForm.optional(),
    strength: zStrength.optional(),
    rxRequired: zRxRequired.optional(),
    active: zActive.optional(),
    description: zDescription.optional(),
    ndc: zNdc.optional(),
    rxcui: zRxcui.optional(),
  })
  .meta({ id: 'UpdateProduct' });

/** Query flags arrive as strings, and trpc-to-openapi would coerce "false" to true: accept exactly "true" or "false". */
export const zActiveFilter = z
  .enum(['true', 'false'])
  .meta({ description: 'Only active ("true") or only inactive ("false") items' })
  .optional();
export const activeFilter = (v: 'true' | 'false' | undefined) => (v === undefined ? undefined : v === 'true');
