import { runQuickstart } from './quickstart.js';
import { startWebhookServer } from './webhook-server.js';

// FR_API_KEY: the sandbox key `npm start` printed; FR_WEBHOOK_SECRET: the whsec_ secret `listen` printed.
const apiKey = process.env.FR_API_KEY;
const secret = process.env.FR_WEBHOOK_SECRET;
const baseUrl = process.env.FR_BASE_URL ?? 'http://localhost:3000';
if (!apiKey || !secret) {
  console.error('Set FR_API_KEY (from `npm start`) and FR_WEBHOOK_SECRET (from `npm run cli -- listen`).');
  process.exit(2);
}

const server = await startWebhookServer({
  port: Number(process.env.PORT ?? 4242),
  secret,
  onEvent: (event) => console.log(`Verified webhook ${event.type} ${event.id}: ${JSON.stringify(event.data)}`),
});
console.log(`Receiving webhooks on ${server.url}`);

const { orderId } = await runQuickstart(apiKey, baseUrl);
await server.waitFor((e) => e.type === 'order.cancelled' && e.data.orderId === orderId);
console.log('Done: the order’s webhook arrived and its signature checked out.');
await server.close();
