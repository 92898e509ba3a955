import type { TestApp } from './harness';

/** Small API wrappers for tests that need products, pharmacies and approved catalogs. */
export function catalogWorld(app: TestApp, key: string) {
  const must = <T>(res: { status: number; text: string; body: T }, status: number, what: string): T => {
    if (res.status !== status) throw new Error(`${what} failed: ${res.status} ${res.text}`);
    return res.body;
  };
  let n = 0;
  return {
    async product(sku = `SKU-${Date.now()}-${++n}`, extra: Record<string, unknown> = {}) {
      return must(await app.request('POST', '/v1/products', { key, body: { name: `Product ${sku}`, sku, form: 'tablet', ...extra } }), 201, 'product') as { id: string; sku: string };
    },
    async pharmacy(name: string, states: string[], settings: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
      const body = { name, adapter: 'simulated', settings, states, ...extra };
      return must(await app.request('POST', '/v1/pharmacies', { key, body }), 201, 'pharmacy') as { id: string; secret: string; name: string };
    },
    upload(connectionId: string, csv: string) {
      return app.request('POST', `/v1/catalogs/upload?pharmacyConnectionId=${connectionId}`, { key, rawBody: csv, headers: { 'content-type': 'text/csv' } });
    },
    /** Uploads `rows` ([sku, item_code, price_cents, stock, eta_days]) and approves the catalog. */
    async approvedCatalog(connectionId: string, rows: (string | number)[][]) {
      const csv = ['sku,item_code,price_cents,stock,eta_days', ...rows.map((r) => r.join(','))].join('\n');
      const catalog = must(await this.upload(connectionId, csv), 201, 'upload') as { id: string };
      return must(await app.request('PATCH', `/v1/catalogs/${catalog.id}/approve`, { key }), 200, 'approve') as { id: string; status: string };
    },
    plan(body: unknown, headers: Record<string, string> = {}) {
      return app.request('POST', '/v1/orders/routing/plan', { key, body, headers });
    },
    policy(body: unknown) {
      return app.request('POST', '/v1/pharmacies/routing-policy', { key, body });
    },
  };
}
