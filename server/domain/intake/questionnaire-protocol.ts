import { inArray } from 'drizzle-orm';
import { products, protocols } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';

/** One line of what a questionnaire's protocol prescribes: the product as the catalog names it, and the prescription. */
export interface ProtocolLineView {
  productId: string;
  /** Null only if the product cannot be read (products are never deleted). */
  productName: string | null;
  form: string | null;
  strength: string | null;
  productActive: boolean | null;
  quantity: number;
  sig: string;
  refills: number;
}

/** The protocol a questionnaire names, as the provider approving the questionnaire reads it (DESIGN decision 45). */
export interface ProtocolView {
  id: string;
  name: string;
  active: boolean;
  items: ProtocolLineView[];
}

/**
 * The protocols named by `ids` (each read once, whatever the number of versions naming it), with their
 * products' names, forms and strengths: what an eligible submission under the questionnaire would prescribe
 * when a provider approves it. Only the caller's tenant and mode; an id of anything else is simply absent.
 */
export async function protocolViews(q: Queryable, scope: Scope, ids: readonly (string | undefined)[]): Promise<Map<string, ProtocolView>> {
  const wanted = [...new Set(ids.filter((id): id is string => Boolean(id)))];
  if (wanted.length === 0) return new Map();
  const s = scoped(q, scope);
  const rows = await q.select().from(protocols).where(s.where(protocols, inArray(protocols.id, wanted)));
  const productIds = [...new Set(rows.flatMap((r) => r.items.map((i) => i.productId)))];
  const found =
    productIds.length === 0
      ? []
      : await q
          .select({ id: products.id, name: products.name, form: products.form, strength: products.strength, active: products.active })
          .from(products)
          .where(s.where(products, inArray(products.id, productIds)));
  const byId = new Map(found.map((p) => [p.id, p]));
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        name: r.name,
        active: r.active,
        items: r.items.map((i) => {
          const p = byId.get(i.productId);
          return {
            productId: i.productId,
            productName: p?.name ?? null,
            form: p?.form ?? null,
            strength: p?.strength ?? null,
            productActive: p?.active ?? null,
            quantity: i.quantity,
            sig: i.sig,
            refills: i.refills,
          };
        }),
      },
    ]),
  );
}
