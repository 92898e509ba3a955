import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '@/package.json';
import { appRouter } from '@/server/api/root';
import { buildRouteTable } from '@/server/api/route-table';
import { buildOpenApiDocument, NON_PROCEDURE_ROUTES } from '@/server/api/openapi';
import { createTenantWithKeys, startTestApp, type TestApp } from '../helpers/harness';

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
    // The console's own views live in their areas' routers and are served only over /api/trpc.
    const CONSOLE_VIEWS = new Set([
      'events.eventLog', 'events.eventDetail', 'events.replayFromConsole', 'events.eventTypes',
      'overview.summary', 'overview.routedOrdersDaily', 'overview.goLive', 'developer.billableRoutedDaily', 'developer.apiKeysWithCreators',
      'orders.ordersWithNames', 'orders.approvalQueue', 'orders.actorNames', 'orders.statuses', 'orders.declineOrder',
      'auth.grants', 'intake.questionnaireVersions', 'intake.submissionForReview', 'intake.reviewQueue', 'billing.banner', 'flowAnalytics.daily',
    ]);
    const consoleOnly = (name: string) => CONSOLE_VIEWS.has(name);
    const all = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { meta?: { openapi?: unknown } } }>);
    const procedures = all.filter(([name]) => !consoleOnly(name));
    for (const [name, proc] of all.filter(([n]) => consoleOnly(n))) expect(proc._def.meta?.openapi, `${name} must not be on /v1`).toBeUndefined();
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
      // A public operation must say so (`security: []`): an absent list reads as "whatever the root says".
      expect(op.security, `${route.method} ${route.path} security`).toEqual(isPublic ? [] : [{ bearerAuth: [] }]);
      // Everything under /public is called with an embed key or a hosted link in the path, never a credential.
      if (route.path.startsWith('/public/')) expect(isPublic, `${route.method} ${route.path} is public`).toBe(true);
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

// Redocly's recommended rules and the generated client's type-check run once, in the `npm run lint:openapi`
// CI step (scripts/lint-openapi.ts), on the document built the same way; here the client runs against the service.
describe('GET /v1/openapi.json for tools', () => {
  it('names the licence, and no error schema leaks into components', () => {
    expect(doc.info.license).toEqual({ name: pkg.license, identifier: pkg.license });
    expect(Object.keys(doc.components.schemas).filter((name) => name.startsWith('error.'))).toEqual([]);
  });

  it('serves the document that lint:openapi checks', () => {
    expect(doc).toEqual(JSON.parse(JSON.stringify(buildOpenApiDocument(appRouter, buildRouteTable(appRouter)))));
  });

  it('drives a generated client (openapi-typescript + openapi-fetch) against the service', async () => {
    const { sandboxKey } = await createTenantWithKeys(app);
    // Its type imports are erased here (lint:openapi type-checks it against the generated types); a path
    // rather than a literal import keeps the project's tsc from following it to types that exist only there.
    const { exercise } = await import(path.resolve('tests/fixtures/openapi-client.example.ts'));
    const seen = await exercise(app.baseUrl, sandboxKey);
    expect(seen).toMatchObject({ plaintextPrefix: 'rk_', loginStatus: 401, loginCode: 'invalid_credentials' });
    expect(seen.names).toContain('Generated client');
    expect(seen.createdId).toMatch(/^key_/);
  });
});
