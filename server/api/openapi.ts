import { generateOpenApiDocument } from 'trpc-to-openapi';
import { ZErrorEnvelope } from './schemas/common';
import type { AppRouter } from './root';
import type { RouteTable } from './route-table';
import { addFhirOperations } from './openapi-fhir';

/** The date-form version of this API's contract (spec: Versioning). */
export const API_VERSION = '2026-11-01';
/** The project's licence (package.json `license`), declared so that generated clients and portals can state it. */
export const API_LICENSE = { name: 'MIT', identifier: 'MIT' } as const;

const COMMON_ERRORS: Record<string, string> = {
  '400': 'Malformed request (validation_error)',
  '401': 'Missing, malformed or invalid credential (authentication_error)',
  '403': 'Authenticated but not allowed (permission_error)',
  '409': 'Idempotency-Key reused or in use, or a state conflict (conflict)',
  '429': 'Rate limited (rate_limit_error); see Retry-After',
  '500': 'Failure on the service side (api_error); retryable',
};

type Json = Record<string, any>;

/** Served by the HTTP layer itself, not by a procedure; documented here by hand. */
export const EVENT_STREAM_PATH = '/developer/events/stream';
export const NON_PROCEDURE_ROUTES = [{ method: 'GET', path: EVENT_STREAM_PATH }] as const;

/**
 * The generated document, then corrected in one place: success statuses (201) come from procedure meta,
 * every error response is the spec's envelope, and the document describes itself.
 */
export function buildOpenApiDocument(router: AppRouter, table: RouteTable): Json {
  const doc = generateOpenApiDocument(router, {
    title: 'Fulfillment Rail API',
    description: 'Telehealth prescription fulfillment: orders, provider approval, routing, webhooks and events.',
    version: API_VERSION,
    baseUrl: '/v1',
    securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: "API key (nk_/rk_) or session JWT; under /patient/ only a patient's portal session token (pt_)" } },
    defs: { Error: ZErrorEnvelope },
  }) as Json;
  doc.info.license = API_LICENSE;
  // The generator adds tRPC's own error shapes; this service answers every error with the envelope (`Error`) instead.
  for (const name of Object.keys(doc.components?.schemas ?? {})) if (name.startsWith('error.')) delete doc.components.schemas[name];

  const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
  for (const route of table.routes) {
    const op = doc.paths?.[route.path]?.[route.method.toLowerCase()];
    if (!op) continue;
    // The generator shares one response object per status across operations; each route's own wording wins here.
    const own = ((route.meta as { openapi?: { errorResponses?: Record<string, string> } }).openapi?.errorResponses ?? {});
    const responses: Json = { ...(op.responses ?? {}) };
    for (const [code, description] of Object.entries(own)) responses[code] = { description };
    const status = String(route.meta.successStatus ?? 200);
    if (status !== '200' && responses['200']) {
      responses[status] = responses['200'];
      delete responses['200'];
    }
    const also = route.meta.alsoSuccess;
    if (also && responses[status]) responses[String(also.status)] = { ...structuredClone(responses[status]), description: also.description };
    for (const [code, description] of Object.entries(COMMON_ERRORS)) responses[code] ??= { description };
    for (const [code, res] of Object.entries(responses)) {
      if (Number(code) >= 400) responses[code] = { description: (res as Json).description ?? 'Error', content: errorContent };
    }
    op.responses = responses;
    // A credential-less operation says so: a client or gateway must not read the absence as "inherits bearer".
    if ((route.meta as { openapi?: { protect?: boolean } }).openapi?.protect === false) op.security = [];
    moveBodyFieldsToQuery(op, route.meta.queryFields ?? []);
    if (route.meta.csvBodyField) addCsvBody(op, route.meta.csvBodyField);
    const takesIdempotencyKey = route.method !== 'GET' && route.meta.idempotent !== false;
    op.parameters = [
      ...(op.parameters ?? []),
      ...(!takesIdempotencyKey ? [] : [{ name: 'Idempotency-Key', in: 'header', required: route.meta.idempotencyRequired === true, schema: { type: 'string', format: 'uuid' } }]),
    ];
  }
  doc.paths[EVENT_STREAM_PATH] = { get: eventStreamOperation(errorContent) };
  addFhirOperations(doc);
  doc.paths['/openapi.json'] = {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This document',
      tags: ['meta'],
      security: [],
      responses: { '200': { description: 'OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  };
  return doc;
}

function moveBodyFieldsToQuery(op: Json, fields: string[]) {
  const schema = op.requestBody?.content?.['application/json']?.schema;
  if (!fields.length || !schema?.properties) return;
  for (const name of fields) {
    const prop = schema.properties[name];
    if (!prop) continue;
    const required = (schema.required ?? []).includes(name);
    delete schema.properties[name];
    schema.required = (schema.required ?? []).filter((r: string) => r !== name);
    op.parameters = [...(op.parameters ?? []), { name, in: 'query', required, schema: prop, description: prop.description }];
  }
}

function addCsvBody(op: Json, field: string) {
  const description = op.requestBody?.content?.['application/json']?.schema?.properties?.[field]?.description;
  op.requestBody.content['text/csv'] = { schema: { type: 'string', description } };
}

function eventStreamOperation(errorContent: Json): Json {
  const error = (description: string) => ({ description, content: errorContent });
  return {
    operationId: 'streamEvents',
    summary: 'Server-Sent Events: each message is one Event (`id:` = event id); resume with Last-Event-ID (machine API keys only)',
    tags: ['developer'],
    security: [{ bearerAuth: [] }],
    parameters: [{ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' }, description: 'Resume after this event id' }],
    responses: {
      '200': {
        description: 'An endless text/event-stream; `data:` is an Event as JSON; comment lines are heartbeats',
        content: { 'text/event-stream': { schema: { type: 'string' } } },
      },
      '400': error('Malformed Last-Event-ID (validation_error)'),
      '401': error(COMMON_ERRORS['401']),
      '403': error('Not a machine API key, or missing events.read (permission_error)'),
      '429': error(COMMON_ERRORS['429']),
      '500': error(COMMON_ERRORS['500']),
    },
  };
}
