import { ZCatalogFeed } from '../../protocol/schemas';
import { answered, firstIssue, send } from '../client';
import type { Check } from '../types';

export const catalogFeed: Check = {
  name: 'catalog-feed',
  title: 'Catalog feed',
  expected: 'GET /catalog, signed, answers 200 with a CatalogFeed ({items: [{sku, itemCode, priceCents, stock, etaDays}]})',
  async run(state) {
    const x = await send(state, 'GET /catalog', 'GET', 'catalog');
    if (x.status !== 200) return { passed: false, seen: answered(x) };
    const parsed = ZCatalogFeed.safeParse(x.json);
    if (!parsed.success) return { passed: false, seen: `HTTP 200, not a CatalogFeed: ${firstIssue(parsed.error)}` };
    state.catalogRow = parsed.data.items.find((r) => r.stock > 0) ?? null;
    const inStock = state.catalogRow ? `; the test order asks for ${state.catalogRow.sku}` : '; none in stock, so the test order names a placeholder item';
    return { passed: true, seen: `HTTP 200, ${parsed.data.items.length} item(s)${inStock}` };
  },
};
