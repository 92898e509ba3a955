/** Shapes of the /v1 catalog answers the console reads (see server/api/routers/{products,protocols,catalogs}/*.types.ts). */
export const PRODUCT_FORMS = ['tablet', 'capsule', 'injection', 'cream', 'solution', 'patch', 'device', 'kit', 'other'] as const;
export type ProductForm = (typeof PRODUCT_FORMS)[number];

export interface Product {
  id: string;
  name: string;
  sku: string;
  form: ProductForm;
  strength: string | null;
  rxRequired: boolean;
  active: boolean;
  description: string | null;
  createdAt: string;
}

export interface ProtocolItem {
  productId: string;
  quantity: number;
  sig: string;
  refills: number;
}

export interface Protocol {
  id: string;
  name: string;
  description: string | null;
  active: boolean;
  items: ProtocolItem[];
  createdAt: string;
}

export type CatalogStatus = 'pending' | 'approved' | 'rejected' | 'superseded';

export interface Catalog {
  id: string;
  pharmacyConnectionId: string;
  source: 'upload' | 'sync';
  status: CatalogStatus;
  lineCount: number;
  skippedCount: number;
  rejectionReason: string | null;
  createdAt: string;
  reviewedAt: string | null;
  reviewedBy: string | null;
}

export interface CatalogLine {
  line: number;
  productId: string;
  sku: string;
  itemCode: string;
  priceCents: number;
  stock: number;
  etaDays: number;
}

export interface CatalogWithLines extends Catalog {
  lines: CatalogLine[];
}
