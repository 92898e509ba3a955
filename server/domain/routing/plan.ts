import { inArray } from 'drizzle-orm';
import { products } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Db } from '@/server/db/types';
import { getPatientShippingState } from '@/server/domain/patients/patients';
import { loadPolicy } from '@/server/domain/pharmacies/routing-policy';
import { AppError, errors } from '@/server/lib/errors';
import { chooseConnection } from './choose';
import { describeIneligible } from './rank';

export interface PlanInput {
  items: { productId: string; quantity?: number; manualConnectionId?: string }[];
  patientId?: string;
  patientState?: string;
}

const missing = (what: string, param: string) => new AppError('not_found', 'resource_missing', 404, `No ${what} of this tenant and mode has this id.`, param);

/**
 * The routing preview of DESIGN decision 12: the pharmacy an order of these lines would go to, through
 * the very decision approval makes (`chooseConnection` → `rankRoutes`), so the preview is the result.
 * An order goes whole to one pharmacy, so a pin names the order's pharmacy and every pin must agree.
 * Reads only.
 */
export async function planRouting(db: Db, scope: Scope, input: PlanInput) {
  if (input.patientId && input.patientState) {
    throw new AppError('validation_error', 'invalid_request', 400, 'Send patientId or patientState, not both.', 'patientState');
  }
  const pinAt = input.items.findIndex((i) => i.manualConnectionId);
  const pin = pinAt < 0 ? null : input.items[pinAt].manualConnectionId!;
  const clash = input.items.findIndex((i) => i.manualConnectionId && i.manualConnectionId !== pin);
  if (clash >= 0) {
    throw errors.validation('An order goes whole to one pharmacy, so its lines cannot be pinned to different pharmacies.', `items.${clash}.manualConnectionId`, 'conflicting_pins');
  }
  const state = input.patientId ? await patientState(db, scope, input.patientId) : (input.patientState ?? null);
  const ids = [...new Set(input.items.map((i) => i.productId))];
  const found = await db.select({ id: products.id, active: products.active }).from(products).where(scoped(db, scope).where(products, inArray(products.id, ids)));
  const active = new Map(found.map((p) => [p.id, p.active]));
  input.items.forEach((item, i) => {
    if (!active.has(item.productId)) throw missing('product', `items.${i}.productId`);
  });
  const lines = input.items.map((i) => ({ productId: i.productId, quantity: i.quantity ?? 1 }));
  const d = await chooseConnection(db, scope, lines, state, { preferred: pin ? { connectionId: pin, kind: 'manual' } : null });
  if (pin && !d.connection(pin)) throw missing('pharmacy connection', `items.${pinAt}.manualConnectionId`);
  // No connection at all: the routing read carries no policy row to echo.
  const policy = d.chosen || d.ineligible.length ? d.policy : await loadPolicy(db, scope);

  // An order cannot be created with an inactive product, so a plan holding one routes nowhere.
  const inactive = lines.flatMap((l, index) => (active.get(l.productId) ? [] : [{ index, productId: l.productId, reason: 'product_inactive' as const, explanation: 'The product is inactive; activate it to order it.' }]));
  const chosen = inactive.length ? null : d.chosen;
  const judgedLine = (index: number) =>
    d.ineligible.flatMap((i) => i.lines.filter((l) => l.index === index).map((l) => ({ connectionId: i.connectionId, name: i.name, reason: l.reason, explanation: describeIneligible(l.reason) })));
  const unfillable = [
    ...inactive,
    ...d.unfillable.filter((u) => active.get(u.productId)).map((u) => ({ ...u, reason: 'no_qualifying_pharmacy' as const, explanation: 'No connected pharmacy can fill this line; each one’s reason is listed.' })),
  ].map((u) => ({ ...u, ineligible: judgedLine(u.index) }));
  return {
    object: 'routing_plan' as const,
    livemode: scope.livemode,
    wholeOrder: true as const,
    strategy: policy.strategy,
    requireStateLicense: policy.requireStateLicense,
    allowFallback: policy.allowFallback,
    patientState: state,
    stateChecked: policy.requireStateLicense && state !== null,
    pharmacy: chosen,
    reason: inactive.length ? ('product_inactive' as const) : d.reason,
    explanation: inactive.length ? `${inactive.length === 1 ? 'A line holds' : `${inactive.length} lines hold`} an inactive product (see unfillable); an order cannot be created with one.` : d.explanation,
    alternatives: chosen ? d.alternatives : [],
    ineligible: d.ineligible.map((i) => ({ ...i, explanation: describeIneligible(i.reason) })),
    lines: lines.map((l, index) => {
      const offer = chosen && d.offerAt(chosen.connectionId, l.productId);
      const fill = offer && { catalogId: offer.catalogId, itemCode: offer.itemCode, unitPriceCents: offer.priceCents, priceCents: offer.priceCents * l.quantity, etaDays: offer.etaDays, stock: offer.stock };
      return { index, productId: l.productId, quantity: l.quantity, fill: fill ?? null };
    }),
    unfillable: unfillable.sort((a, b) => a.index - b.index),
    totalPriceCents: chosen?.priceCents ?? 0,
  };
}

async function patientState(db: Db, scope: Scope, patientId: string) {
  try {
    return await getPatientShippingState(db, scope, patientId);
  } catch (err) {
    if ((err as AppError).type === 'not_found') throw missing('patient', 'patientId');
    throw err;
  }
}
