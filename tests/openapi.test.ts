import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '@/server/api/root';
import { buildRouteTable } from '@/server/api/route-table';
import { NON_PROCEDURE_ROUTES } from '@/server/api/openapi';
import { startTestApp, type TestApp } from './helpers/harness';

let app: TestApp;
let doc: any;
beforeAll(async () => {
  app = await startTestApp();
  const res = await app.request('GET', '/v1/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(async () => app?.close());

describe('GET /v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document with a date-form version', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(doc.info.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(doc.servers[0].url).toBe('/v1');
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('describes every operation the app serves, with its success status and the error envelope', () => {
    const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { meta?: { openapi?: unknown } } }>);
    for (const [name, proc] of procedures) expect(proc._def.meta?.openapi, `${name} has no REST route`).toBeDefined();
    const table = buildRouteTable(appRouter);
    expect(table.routes.length).toBe(procedures.length);
    for (const route of table.routes) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      const success = String(route.meta.successStatus ?? 200);
      expect(op.responses[success], `${route.method} ${route.path} ${success}`).toBeDefined();
      expect(op.responses['401'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
      const isPublic = (route.meta as { openapi?: { protect?: boolean } }).openapi?.protect === false;
      if (!isPublic) expect(op.security, `${route.method} ${route.path} security`).toBeDefined();
    }
  });

  it('documents the routes the HTTP layer serves itself (the event stream), and serves them', async () => {
    for (const route of NON_PROCEDURE_ROUTES) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      expect(op.responses['200']).toBeDefined();
      expect(op.responses['401'].content['application/json'].schema.$ref).toBe('#/components/schemas/Error');
      expect(op.security).toBeDefined();
      expect((await app.request(route.method, `/v1${route.path}`)).status).toBe(401);
    }
  });

  it('documents the spec’s API-key fields', () => {
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.ApiKeyPublic.properties).sort()).toEqual(
      // The spec's fields, and `createdBy` (issue 20: who created each key).
      ['createdAt', 'createdBy', 'expiresAt', 'id', 'keyType', 'last4', 'lastUsedAt', 'mode', 'name', 'prefix', 'revokedAt', 'scopes'].sort(),
    );
    expect(doc.paths['/developer/keys'].post.responses['201']).toBeDefined();
  });
});
