import * as z from '@/server/lib/zod';
import { REASON_CODES, type ReasonCode } from '@/server/lib/pharmacy-reason-codes';
import { ZCancelRequest, ZCatalogFeed, ZOrderRequest, ZOrderState, ZReasonCode, ZStatusCallback, ZTracking } from './schemas';
import { ZCatalogFeedRow } from '../settings';
import { PROTOCOL_TIMINGS } from './timings';

/** The protocol's version, in date form like the API's; a change a pharmacy must act on gets a new date. */
export const PHARMACY_PROTOCOL_VERSION = '2026-11-01';

type Json = Record<string, any>;
type Meta = { id: string; description?: string };

// Two registries because a schema is described as it travels: what we send in its output form (defaults
// applied), what we accept in its input form (a field with a default may be left out).
const sent = z.registry<Meta>();
sent.add(ZOrderRequest, { id: 'OrderRequest', description: 'The order Fulfillment Rail sends: the prescription lines, the patient, the prescriber and where callbacks go.' });
sent.add(ZCancelRequest, { id: 'CancelRequest', description: 'Always an empty object.' });

const accepted = z.registry<Meta>();
accepted.add(ZOrderState, { id: 'OrderState', description: "Your view of one order: the answer to create, lookup and cancel." });
accepted.add(ZCatalogFeed, { id: 'CatalogFeed', description: 'Your price list for this clinic.' });
accepted.add(ZCatalogFeedRow, { id: 'CatalogFeedRow', description: 'One priced item.' });
accepted.add(ZStatusCallback, { id: 'StatusCallback', description: 'A status change of one order, sent to the order\'s `callbackUrl`.' });
accepted.add(ZTracking, { id: 'Tracking', description: 'Where the parcel is.' });
accepted.add(ZReasonCode, { id: 'ReasonCode', description: reasonCodeTable() });

function reasonCodeTable(): string {
  const rows = Object.entries(REASON_CODES as Record<string, ReasonCode>)
    .map(([code, r]) => `| \`${code}\` | ${r.use.replace(/_/g, ' ')} | ${r.meaning} | ${r.rerouteHelps ? 'yes' : 'no'} |`)
    .join('\n');
  return (
    'Why an order is rejected or held: a lowercase code, never prose. Unknown codes are kept and shown as "other" with the value.\n\n' +
    `| code | with | meaning | another pharmacy may fill it |\n|---|---|---|---|\n${rows}`
  );
}

/** The JSON Schemas of one registry, as OpenAPI components (no per-schema `$schema`/`$id`: the document says 3.1). */
function components(registry: z.core.$ZodRegistry<Meta>, io: 'input' | 'output'): Record<string, Json> {
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-2020-12', io, uri: (id) => `#/components/schemas/${id}` }) as { schemas: Record<string, Json> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return schemas;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string) => ({ 'application/json': { schema: ref(name) } });
const refusal = (description: string) => ({ description, content: { 'application/json': { schema: ref('Refusal') } } });
const SIGNED_HEADERS = [{ $ref: '#/components/parameters/WebhookId' }, { $ref: '#/components/parameters/WebhookTimestamp' }];
const IDEMPOTENCY_KEY = { $ref: '#/components/parameters/IdempotencyKey' };
const KEY_IN_PATH = {
  name: 'idempotencyKey',
  in: 'path',
  required: true,
  description: 'The Idempotency-Key the order was created with (URL-encoded)',
  schema: { type: 'string', minLength: 1, maxLength: 200 },
};
const BAD_SIGNATURE = refusal('The request is not signed with the connection secret, or its timestamp is more than 5 minutes off');

function statusCallbackOperation(operationId: string, summary: string): Json {
  return {
    operationId,
    summary,
    description:
      "Signed like every request of the protocol (Standard Webhooks, the connection's secret), by you this time. Send one for every status change after receipt; " +
      'repeats are harmless (statuses only move forward). Answer codes: 200 applied or ignored; 400 the body is not a StatusCallback (do not retry unchanged); ' +
      '401 the signature does not verify; 404 no such connection; any other answer or no answer: retry with backoff. Nothing is lost if you do not: we also poll `GET /orders/{idempotencyKey}`.',
    tags: ['callbacks'],
    parameters: SIGNED_HEADERS,
    requestBody: { required: true, content: json('StatusCallback') },
    responses: {
      '200': { description: 'Received', content: { 'application/json': { schema: { type: 'object', properties: { received: { const: true }, outcome: { type: 'string' } } } } } },
      '400': refusal('The body is not a StatusCallback'),
      '401': BAD_SIGNATURE,
    },
  };
}

/**
 * The pharmacy protocol as an OpenAPI 3.1 document (issue 54): the operations a pharmacy serves, the callbacks it
 * sends, and every body, generated from the schemas the `http` adapter itself reads and writes (schemas.ts).
 */
export function buildPharmacyProtocolDocument(): Json {
  const t = PROTOCOL_TIMINGS;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Fulfillment Rail pharmacy protocol',
      version: PHARMACY_PROTOCOL_VERSION,
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        "What a pharmacy serves so that Fulfillment Rail's `http` pharmacy adapter can send it prescriptions, and the status callbacks it sends back. " +
        'The guide, with the reason-code vocabulary and what we do with each answer, is docs/pharmacy-protocol.md; `npm run cli -- pharmacy verify --base-url URL --secret whsec_…` checks an implementation.\n\n' +
        "**Signing, both ways.** Every request we send carries Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of \"id.timestamp.body\">`) made with the connection's `whsec_` secret " +
        '(the key is the base64 after `whsec_`); a GET signs the empty body. Refuse (401) a request whose signature does not verify or whose timestamp is more than 5 minutes off. Sign your callbacks the same way with the same secret.\n\n' +
        '**Idempotency.** `POST /orders` carries `Idempotency-Key` (our dispatch key, one per order and dispatch round). The same key must always name the same order: a repeat creates nothing and answers the first order. ' +
        'We never send two different orders with one key; after a crash we look the key up before sending again.\n\n' +
        `**Timeouts and retries.** Each request waits at most the connection's \`timeoutMs\` (default ${t.defaultTimeoutMs} ms, at most ${t.maxTimeoutMs} ms). ` +
        'A timeout, a network error, an answer other than 2xx or 404, a body over 4 MiB, or a body that is not the schema below counts as "unavailable": the dispatch is retried by our worker ' +
        `(lookup first, after ${t.dispatchGraceMs / 1000} s, then with exponential backoff from 1 s up to an hour), the status sync asks again every ${t.syncIntervalMs / 1000} s, a cancel is retried with the same backoff.\n\n` +
        '**Test orders.** An order with `livemode: false` (a sandbox order, or the checker\'s) must never be filled; the checker cancels its orders when it is done.',
    },
    servers: [{ url: '{baseUrl}', description: "The connection's `baseUrl` (https; http only for localhost)", variables: { baseUrl: { default: 'https://pharmacy.test/api' } } }],
    security: [{ standardWebhooks: [] }],
    tags: [
      { name: 'orders', description: 'Order create, lookup and cancel, keyed by our Idempotency-Key' },
      { name: 'catalog', description: 'Your price list' },
      { name: 'callbacks', description: 'What you send us' },
    ],
    paths: {
      '/catalog': {
        get: {
          operationId: 'getCatalog',
          summary: 'Your price list for this clinic',
          description: 'Fetched when the clinic syncs your catalog; it becomes a pending catalog the clinic reviews. Rows whose SKU the clinic does not sell are skipped.',
          tags: ['catalog'],
          parameters: SIGNED_HEADERS,
          responses: { '200': { description: 'The price list', content: json('CatalogFeed') }, '401': BAD_SIGNATURE },
        },
      },
      '/orders': {
        post: {
          operationId: 'createOrder',
          summary: 'Receive an order, once per Idempotency-Key',
          description:
            'Answer the order as you now hold it (status `received`, or already `accepted` or `rejected`). A repeat of the key answers the same order (same `externalId`) and creates nothing, whatever its body. ' +
            'Send every later status to the order\'s `callbackUrl`.',
          tags: ['orders'],
          parameters: [IDEMPOTENCY_KEY, ...SIGNED_HEADERS],
          requestBody: { required: true, content: json('OrderRequest') },
          responses: {
            '200': { description: 'A repeat of a key you hold: the first order', content: json('OrderState') },
            '201': { description: 'A new order', content: json('OrderState') },
            '400': refusal('No Idempotency-Key, or a body that is not an OrderRequest'),
            '401': BAD_SIGNATURE,
          },
          callbacks: { statusChanged: { '{$request.body#/callbackUrl}': { post: statusCallbackOperation('orderStatusChanged', 'A status change of this order') } } },
        },
      },
      '/orders/{idempotencyKey}': {
        get: {
          operationId: 'getOrder',
          summary: 'Your view of the order created with this key',
          description: 'Asked while an order is in flight, and before any re-send after a crash: answer 404 only when you never received the key.',
          tags: ['orders'],
          parameters: [KEY_IN_PATH, ...SIGNED_HEADERS],
          responses: { '200': { description: 'The order', content: json('OrderState') }, '401': BAD_SIGNATURE, '404': refusal('No order was ever created with this key') },
        },
      },
      '/orders/{idempotencyKey}/cancel': {
        post: {
          operationId: 'cancelOrder',
          summary: 'Cancel the order if it has not shipped',
          description:
            'Answer the order after the attempt: `cancelled`, or the status that stopped it (`shipped`, `delivered`); a repeat answers the same. Signed and keyed like create (Idempotency-Key is the order\'s key). ' +
            'Send a `cancelled` callback too.',
          tags: ['orders'],
          parameters: [KEY_IN_PATH, IDEMPOTENCY_KEY, ...SIGNED_HEADERS],
          requestBody: { required: true, content: json('CancelRequest') },
          responses: { '200': { description: 'The order after the attempt', content: json('OrderState') }, '401': BAD_SIGNATURE, '404': refusal('No order was ever created with this key') },
        },
      },
    },
    webhooks: { statusCallback: { post: statusCallbackOperation('statusCallback', "A status callback to Fulfillment Rail's /v1/pharmacy-callbacks/{connectionId}") } },
    components: {
      securitySchemes: {
        standardWebhooks: {
          type: 'apiKey',
          in: 'header',
          name: 'webhook-signature',
          description: '`v1,` + base64 HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}` with the connection secret (Standard Webhooks); space-separated when several.',
        },
      },
      parameters: {
        WebhookId: { name: 'webhook-id', in: 'header', required: true, description: 'Unique per request; the same on a retry of the same request', schema: { type: 'string' } },
        WebhookTimestamp: { name: 'webhook-timestamp', in: 'header', required: true, description: 'Unix seconds when signed', schema: { type: 'string', pattern: '^[0-9]+$' } },
        IdempotencyKey: { name: 'Idempotency-Key', in: 'header', required: true, description: 'Our dispatch key: one per order and dispatch round', schema: { type: 'string', minLength: 1, maxLength: 200 } },
      },
      schemas: {
        ...components(sent, 'output'),
        ...components(accepted, 'input'),
        Refusal: { type: 'object', description: 'Any JSON you like; we read only the status code.', additionalProperties: true },
      },
    },
  };
}
