import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '@/server/api/root';
import { buildRouteTable } from '@/server/api/route-table';
import { MAX_JSON_DEPTH } from '@/server/lib/json-depth';
import { startPatientSession } from '@/server/domain/patients/sign-in/patient-sessions';
import { createTenantWithKeys, createUserAndLogin, expectEnvelope, OPS_KEY, startTestApp, type ApiResponse, type TestApp } from './helpers/harness';
import { approvedQuestionnaire, weightDocument } from './helpers/intake-world';
import { providerSession } from './helpers/orders-world';

/**
 * Bad input to every POST and PATCH operation of the OpenAPI document (the list is read from the document
 * the app serves, so a new operation is covered the day it is added): a NUL in any string field, path or
 * query parameter, a lone UTF-16 surrogate in any string field (issue 49), a body nested deeper than the cap,
 * and a body that is not a JSON object. Each must be a 400 (or, for path parameters, any 4xx), never a 500 nor,
 * for the surrogate, a U+FFFD stored in its place. (A URL cannot carry a lone surrogate: it has no UTF-8 form,
 * so percent-decoding yields U+FFFD or fails; path and query parameters get the NUL only.)
 */

type Schema = Record<string, any>;
interface Op {
  method: 'POST' | 'PATCH';
  path: string;
  params: Schema[];
  body?: Schema;
  raw: boolean;
  /**
   * A FHIR operation (/v1/fhir/…): its errors are OperationOutcome resources, not the envelope (DESIGN decision 42),
   * and its handler authenticates before it reads the body, so its bodies are sent with a credential.
   */
  fhir: boolean;
}

let app: TestApp;
let doc: Schema;
let ops: Op[];
let credentials: string[];
// Public embed paths resolve their key before reading the body: a real (sandbox, so any origin) key gets them there.
let embedKey: string;
// Likewise a hosted intake link resolves its token first: an open one (a refused body does not spend it).
let hostedToken: string;
beforeAll(async () => {
  // Not a test of rate limits: on a fast machine the public paths' per-key limit (20 a second) would answer first.
  app = await startTestApp({ EMBED_RATE_LIMIT: '100000' });
  doc = (await app.request('GET', '/v1/openapi.json')).body;
  const raw = new Set(buildRouteTable(appRouter).routes.filter((r) => r.meta.rawBody).map((r) => `${r.method} ${r.path}`));
  ops = Object.entries(doc.paths as Record<string, Record<string, Schema>>).flatMap(([path, byMethod]) =>
    (['post', 'patch'] as const).flatMap((m) => {
      const op = byMethod[m];
      if (!op) return [];
      const method = m.toUpperCase() as Op['method'];
      return [{ method, path, params: op.parameters ?? [], body: op.requestBody?.content?.['application/json']?.schema, raw: raw.has(`${method} ${path}`), fhir: path.startsWith('/fhir/') }];
    }),
  );
  const clinic = await createTenantWithKeys(app, 'Bad input');
  // Whichever of these reaches an operation's input validation: a tenant key, the platform's ops key, an owner's or a provider's session
  // (and, below, a patient's portal session).
  const owner = await createUserAndLogin(app, clinic.tenantId, { email: 'owner@bad-input.test', role: 'owner' });
  credentials = [clinic.sandboxKey, OPS_KEY, owner.token, (await providerSession(app, clinic.tenantId, ['CA'])).token];
  embedKey = (await app.request('POST', '/v1/embed-keys', { key: clinic.sandboxKey, body: { allowedOrigins: [] } })).body.id;
  await approvedQuestionnaire(app, { tenantId: clinic.tenantId, livemode: false }, weightDocument('bad-input'));
  const patient = await app.request('POST', '/v1/patients', { key: clinic.sandboxKey, body: { synthetic: true } });
  // The patient endpoints (/v1/patient/…) take only a patient's portal session: one made straight for this patient.
  credentials.push((await startPatientSession(app.services.database.db, { tenantId: clinic.tenantId, livemode: false }, patient.body.id)).token);
  const link = await app.request('POST', '/v1/intake/hosted-links', { key: clinic.sandboxKey, body: { patientId: patient.body.id, questionnaireKey: 'bad-input' } });
  if (link.status !== 201) throw new Error(`hosted link: ${link.status} ${link.text}`);
  hostedToken = String(link.body.url).split('/i/')[1];
});
afterAll(async () => app?.close());

const resolve = (s: Schema): Schema => (s?.$ref ? resolve(doc.components.schemas[s.$ref.split('/').pop()!]) : s);

/** Every string leaf of a request schema (and a value of each record), as the path zod reports (`items.0.sig`), and whether it is free text. */
function stringFields(schema: Schema | undefined, path: string[] = [], depth = 0): { path: string[]; free: boolean }[] {
  const s = resolve(schema as Schema);
  if (!s || depth > 8) return [];
  const branches = [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])];
  if (branches.length) return branches.flatMap((b: Schema) => stringFields(b, path, depth + 1));
  const types = [s.type].flat();
  if (types.includes('object')) {
    const named = Object.entries(s.properties ?? {}).flatMap(([k, v]) => stringFields(v as Schema, [...path, k], depth + 1));
    // A record (answers by id, adapter settings): its values are free JSON, planted under one key. (A document
    // taken whole, with no propertyNames, is checked field by field by its own schema, which refuses unknown keys.)
    const values = s.propertyNames && s.additionalProperties && typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined;
    if (!values) return named;
    return [...named, ...(Object.keys(values).length ? stringFields(values, [...path, 'x'], depth + 1) : [{ path: [...path, 'x'], free: true }])];
  }
  if (types.includes('array')) return stringFields(s.items, [...path, '0'], depth + 1);
  // An enum, const or format refuses a NUL with its own message, which may not be the one zod lists first.
  if (types.includes('string')) return [{ path, free: !s.enum && s.const === undefined && !s.format }];
  return [];
}

function bodyWith(path: string[], value: unknown): unknown {
  if (!path.length) return value;
  const [head, ...rest] = path;
  return head === '0' ? [bodyWith(rest, value)] : { [head]: bodyWith(rest, value) };
}

const DUMMY_ID = 'x_00000000000000000000000000';
const urlOf = (op: Op, pathValues: Record<string, string> = {}, query = '') =>
  `/v1${op.path.replace(/\{(\w+)\}/g, (_, name: string) => pathValues[name] ?? DUMMY_ID)}${query}`;

/** The answer of the first credential that gets past authentication and authorization. */
async function send(op: Op, url: string, rawBody: string | undefined): Promise<ApiResponse> {
  let res: ApiResponse | undefined;
  for (const key of credentials) {
    // Where Idempotency-Key is required, a fresh one gets the request to its body (a refused body stores nothing).
    const idempotencyKey = op.params.some((p) => p.in === 'header' && p.name === 'Idempotency-Key' && p.required) ? randomUUID() : undefined;
    res = await app.request(op.method, url, { key, rawBody, idempotencyKey, headers: rawBody === undefined ? {} : { 'content-type': 'application/json' } });
    if (res.status !== 401 && res.status !== 403) return res;
  }
  return res!;
}

const withNul = fc.tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 })).map(([a, b]) => `${a}\u0000${b}`);
// fc.string is ASCII, so the planted half stays unpaired: a high one (U+D800–U+DBFF) or a low one (U+DC00–U+DFFF).
const loneSurrogate = fc.oneof(fc.integer({ min: 0xd800, max: 0xdbff }), fc.integer({ min: 0xdc00, max: 0xdfff })).map((c) => String.fromCharCode(c));
const withLoneSurrogate = fc.tuple(fc.string({ maxLength: 20 }), loneSurrogate, fc.string({ maxLength: 20 })).map(([a, s, b]) => `${a}${s}${b}`);
const label = (op: Op) => `${op.method} ${op.path}`;

/** A refused body: the envelope with its code, or for a FHIR operation an OperationOutcome, with the request id either way. */
function expectRefusedBody(res: ApiResponse, op: Op, code: string) {
  if (!op.fhir) return expectEnvelope(res, 400, 'validation_error', code);
  expect(res.status, `${label(op)}: ${res.text}`).toBe(400);
  expect(res.body?.resourceType, label(op)).toBe('OperationOutcome');
  expect(res.headers.get('x-request-id'), label(op)).toMatch(/^req_/);
}

describe('every POST and PATCH operation of the OpenAPI document', () => {
  it('is read from the document', () => {
    expect(ops.length).toBeGreaterThan(30);
    expect(ops.map(label)).toEqual(expect.arrayContaining(['POST /patients', 'PATCH /patients/{id}', 'POST /orders', 'POST /auth/logout']));
  });

  it.each([
    ['a NUL', withNul, /must not contain the NUL character \(\\u0000\)\.$/],
    ['a lone UTF-16 surrogate', withLoneSurrogate, /must not contain a lone UTF-16 surrogate \(\\ud800–\\udfff\)\.$/],
  ])('answers %s in any string field of its body with 400 naming the field', async (_name, planted, message) => {
    for (const op of ops.filter((o) => o.body)) {
      for (const field of stringFields(op.body)) {
        const param = field.path.join('.');
        await fc.assert(
          fc.asyncProperty(planted, async (text) => {
            const res = await send(op, urlOf(op, { embedKey, token: hostedToken }), JSON.stringify(bodyWith(field.path, text)));
            expect(res.status, `${label(op)} ${param}: ${res.text}`).toBe(400);
            if (op.fhir) return expectRefusedBody(res, op, 'validation_error');
            expectEnvelope(res, 400, 'validation_error');
            if (field.free) expect(res.body.error.param, `${label(op)} ${param}`).toBe(param);
            if (field.free) expect(res.body.error.message, `${label(op)} ${param}`).toMatch(message);
          }),
          { numRuns: 3 },
        );
      }
    }
  });

  it('answers a NUL in a query or path parameter with a 4xx, naming a query parameter', async () => {
    for (const op of ops) {
      for (const p of op.params.filter((x) => x.in === 'query' || x.in === 'path')) {
        await fc.assert(
          fc.asyncProperty(withNul, async (text) => {
            const value = encodeURIComponent(text);
            const url = p.in === 'path' ? urlOf(op, { [p.name]: value }) : urlOf(op, {}, `?${p.name}=${value}`);
            const res = await send(op, url, op.raw ? undefined : '{}');
            expect(res.status, `${label(op)} ${p.in} ${p.name}: ${res.text}`).toBeGreaterThanOrEqual(400);
            expect(res.status, `${label(op)} ${p.in} ${p.name}: ${res.text}`).toBeLessThan(500);
            if (p.in === 'query' && !op.fhir) expect(res.body.error.param).toBe(p.name);
          }),
          { numRuns: 3 },
        );
      }
    }
  });

  const nested = fc.tuple(fc.integer({ min: MAX_JSON_DEPTH + 1, max: 6000 }), fc.constantFrom('array', 'object')).map(([depth, kind]) =>
    kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
  );

  it('answers a body nested deeper than the cap with 400 before authentication', async () => {
    for (const op of ops) {
      await fc.assert(
        fc.asyncProperty(nested, async (body) => {
          const res = op.fhir ? await send(op, urlOf(op), body) : await app.request(op.method, urlOf(op), { rawBody: body, headers: { 'content-type': 'application/json' } });
          if (op.raw) expect(res.status, label(op)).toBeLessThan(500);
          else expectRefusedBody(res, op, 'json_too_deep');
        }),
        { numRuns: 4 },
      );
    }
  });

  it('does not refuse a body for its depth at the cap itself', async () => {
    const atCap = '{"a":'.repeat(MAX_JSON_DEPTH - 1) + '{}' + '}'.repeat(MAX_JSON_DEPTH - 1);
    const res = await app.request('POST', '/v1/patients', { key: credentials[0], rawBody: atCap, headers: { 'content-type': 'application/json' } });
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.code).not.toBe('json_too_deep');
  });

  const notAnObject = fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string(), fc.array(fc.jsonValue(), { maxLength: 3 }));

  it('answers a body that is not a JSON object with 400 before authentication', async () => {
    for (const op of ops) {
      await fc.assert(
        fc.asyncProperty(notAnObject, async (value) => {
          const res = op.fhir
            ? await send(op, urlOf(op), JSON.stringify(value))
            : await app.request(op.method, urlOf(op), { rawBody: JSON.stringify(value), headers: { 'content-type': 'application/json' } });
          if (op.raw) expect(res.status, label(op)).toBeLessThan(500);
          else expectRefusedBody(res, op, 'invalid_body');
        }),
        { numRuns: 5 },
      );
    }
  });
});
