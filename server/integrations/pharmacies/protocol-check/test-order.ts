import * as z from '@/server/lib/zod';
import { ZOrderRequest, ZOrderState, type OrderRequest } from '../protocol/schemas';
import type { RunState } from './types';

/** Used when the pharmacy's catalog lists nothing in stock: the order will be refused, which the checks say. */
const PLACEHOLDER = { sku: 'FR-PROTOCOL-CHECK', itemCode: 'FR-PROTOCOL-CHECK' };

/**
 * The checker's order: a test order (`livemode: false`, never to be filled) of a synthetic patient, for one unit
 * of the first item the pharmacy's catalog has in stock, whose callbacks go to the checker. Parsed with the
 * adapter's own request schema, so it is exactly what Fulfillment Rail would send.
 */
export function testOrder(state: RunState, quantity = 1): OrderRequest {
  const row = state.catalogRow ?? PLACEHOLDER;
  return ZOrderRequest.parse({
    orderId: 'ord_protocolcheck',
    livemode: false,
    items: [{ productId: 'prd_protocolcheck', sku: row.sku, itemCode: row.itemCode, quantity, sig: 'Protocol check: a test order, never fill', refills: 0 }],
    patient: {
      id: 'pat_protocolcheck',
      firstName: 'Test',
      lastName: 'Patient',
      dateOfBirth: '1970-01-01',
      sex: 'unknown',
      phone: null,
      email: null,
      address: { line1: '1 Test Street', line2: null, city: 'Testville', state: 'CA', postalCode: '90001', country: 'US' },
    },
    prescriber: { npi: '1234567893', name: 'Protocol Check' },
    callbackUrl: state.options.callbacks.url,
  });
}

/** An order answer read for its shape; whether its status is one of the protocol's is the status-names check's. */
export const ZAnyStatusOrderState = ZOrderState.extend({ status: z.string().min(1).max(64) });

export const orderPath = (key: string) => `orders/${encodeURIComponent(key)}`;
