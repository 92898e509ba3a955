import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { tenants } from './tenants';
import { pharmacyConnections } from './pharmacies';

export const products = pgTable(
  'products',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    livemode: boolean('livemode').notNull(),
    name: text('name').notNull(),
    sku: text('sku').notNull(),
    form: text('form').notNull(),
    strength: text('strength'),
    rxRequired: boolean('rx_required').notNull(),
    active: boolean('active').notNull(),
    description: text('description'),
    // Drug codes (DESIGN decision 42), both optional: the NDC in its 11-digit 5-4-2 form (`00002-1433-80`) and the
    // RxNorm concept (RxCUI, digits). FHIR MedicationRequests code the product with them.
    ndc: text('ndc'),
    rxcui: text('rxcui'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('products_sku_idx').on(t.tenantId, t.livemode, t.sku), index('products_scope_idx').on(t.tenantId, t.livemode, t.id)],
);

export interface ProtocolItem {
  productId: string;
  quantity: number;
  sig: string;
  refills: number;
}

export const protocols = pgTable(
  'protocols',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    livemode: boolean('livemode').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    items: jsonb('items').$type<ProtocolItem[]>().notNull(),
    active: boolean('active').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('protocols_scope_idx').on(t.tenantId, t.livemode, t.id)],
);

export type CatalogStatus = 'pending' | 'approved' | 'rejected' | 'superseded';

export const catalogs = pgTable(
  'catalogs',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    livemode: boolean('livemode').notNull(),
    connectionId: text('connection_id')
      .notNull()
      .references(() => pharmacyConnections.id),
    source: text('source').$type<'upload' | 'sync'>().notNull(),
    status: text('status').$type<CatalogStatus>().notNull(),
    lineCount: integer('line_count').notNull(),
    // Synced rows whose SKU the tenant has no product for: counted, not loaded.
    skippedCount: integer('skipped_count').notNull().default(0),
    rejectionReason: text('rejection_reason'),
    createdBy: text('created_by'),
    reviewedBy: text('reviewed_by'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('catalogs_scope_idx').on(t.tenantId, t.livemode, t.id), index('catalogs_connection_idx').on(t.connectionId, t.status)],
);

export const catalogLines = pgTable(
  'catalog_lines',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id),
    livemode: boolean('livemode').notNull(),
    catalogId: text('catalog_id')
      .notNull()
      .references(() => catalogs.id),
    connectionId: text('connection_id').notNull(),
    lineNo: integer('line_no').notNull(),
    productId: text('product_id')
      .notNull()
      .references(() => products.id),
    itemCode: text('item_code').notNull(),
    priceCents: integer('price_cents').notNull(),
    stock: integer('stock').notNull(),
    etaDays: integer('eta_days').notNull(),
    // The drug codes a synced pharmacy feed gave for what it dispenses (normalised like a product's); approving
    // the catalog gives them to products that have none of their own.
    ndc: text('ndc'),
    rxcui: text('rxcui'),
    // True only for lines of a connection's approved catalog: routing reads these and nothing else.
    live: boolean('live').notNull().default(false),
  },
  (t) => [
    index('catalog_lines_catalog_idx').on(t.catalogId, t.lineNo),
    index('catalog_lines_routing_idx').on(t.tenantId, t.livemode, t.productId).where(sql`${t.live}`),
  ],
);
