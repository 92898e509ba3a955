import type { z } from 'zod';
import type { ZCatalog } from '@/server/api/routers/catalogs/catalog.types';
import type { ZProduct } from '@/server/api/routers/products/product.types';

/** The /v1 catalog answers the console reads, as the API's own schemas declare them. */
export type Product = z.output<typeof ZProduct>;
export type Catalog = z.output<typeof ZCatalog>;

// A value the forms need at run time; the server's list is in server/domain/catalog/products.ts.
export const PRODUCT_FORMS = ['tablet', 'capsule', 'injection', 'cream', 'solution', 'patch', 'device', 'kit', 'other'] as const;
export type ProductForm = Product['form'];

/** One page of the biggest size the API allows: a clinic's catalog fits in it. Server prefetch and client read the same key. */
export const LIST_INPUT = { limit: 100 } as const;
