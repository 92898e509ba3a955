import { FulfillmentRail, FulfillmentRailError } from '@fulfillment-rail/sdk';

/**
 * The integration itself: a patient, an order for one of the clinic's products, a look at the orders list, and
 * a cancel (an order no pharmacy holds yet may be cancelled by the clinic; a provider's approval would send it on).
 */
export async function runQuickstart(apiKey: string, baseUrl: string) {
  const client = new FulfillmentRail(apiKey, { baseUrl });
  console.log(`Using a ${client.mode} key against ${baseUrl}`);

  // Sandbox patients are synthetic: {synthetic: true} alone makes a realistic fictitious one.
  const patient = await client.patients.create({ synthetic: true });
  const [product] = await client.products.list();
  if (!product) throw new Error('Add a product first (the demo clinic of `npm start` has some).');

  // Every mutation carries an Idempotency-Key: a retry after a timeout never creates a second order.
  const order = await client.orders.create({ patientId: patient.id, items: [{ productId: product.id, quantity: 1, sig: 'Take one tablet daily' }] });
  console.log(`Created order ${order.id} (${order.status}) for patient ${patient.id}`);

  // Lists page on their own: this walks every order, 100 at a time.
  let count = 0;
  for await (const _order of client.orders.list({ status: order.status })) count++;
  console.log(`${count} order(s) are ${order.status}`);

  // Errors are typed: type and code are the stable contract, requestId is what support asks for.
  try {
    await client.orders.submit(order.id);
  } catch (err) {
    if (!(err instanceof FulfillmentRailError)) throw err;
    console.log(`Submit refused as expected: ${err.type}/${err.code} (request ${err.requestId})`);
  }

  const cancelled = await client.orders.cancel(order.id);
  console.log(`Cancelled order ${cancelled.id}: watch for order.cancelled`);
  return { patientId: patient.id, orderId: order.id };
}
