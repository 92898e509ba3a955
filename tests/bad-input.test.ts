import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createTenantWithKeys, createUserAndLogin, expectEnvelope, startTestApp, type TestApp } from './helpers/harness';
import { captureLogs } from './helpers/logs';

/** The reproductions of issue 20 (bad input answered with 500, empty patches, logout of every session), over HTTP. */

let app: TestApp;
let key: string;
let tenantId: string;
let logs: ReturnType<typeof captureLogs>;
beforeAll(async () => {
  app = await startTestApp();
  ({ sandboxKey: key, tenantId } = await createTenantWithKeys(app, 'Repro'));
  logs = captureLogs();
});
afterAll(async () => {
  logs?.restore();
  await app?.close();
});

const json = { 'content-type': 'application/json' };
const noFailureLogged = () => expect(logs.records().filter((r) => r.level >= 50)).toEqual([]);

describe('NUL bytes', () => {
  it('in medications on POST /patients: 400 naming the field, nothing written, nothing logged', async () => {
    const before = await countRows(app, 'patients');
    const body = { firstName: 'Ann', lastName: 'Lee', dateOfBirth: '1980-01-01', sex: 'female', medications: ['Metformin\u0000 500 mg'] };
    const res = await app.request('POST', '/v1/patients', { key, body });
    expectEnvelope(res, 400, 'validation_error', 'invalid_request');
    expect(res.body.error.param).toBe('medications.0');
    expect(res.text).not.toContain('Metformin');
    expect(await countRows(app, 'patients')).toBe(before);
    noFailureLogged();
  });

  it('in starting_after of every list in the OpenAPI document: 400 naming it', async () => {
    const doc = (await app.request('GET', '/v1/openapi.json')).body;
    const lists = Object.entries(doc.paths as Record<string, any>).filter(([, ops]) => ops.get?.parameters?.some((p: any) => p.name === 'starting_after'));
    expect(lists.length).toBeGreaterThan(5);
    for (const [path] of lists) {
      const url = `/v1${path.replace(/\{\w+\}/g, 'x_00000000000000000000000000')}?starting_after=%00`;
      const res = await app.request('GET', url, { key });
      expectEnvelope(res, 400, 'validation_error');
      expect(res.body.error.param, path).toBe('starting_after');
    }
    noFailureLogged();
  });

  it('in a pharmacy setting (free-form at the API, checked by the adapter): 400', async () => {
    const before = await countRows(app, 'pharmacy_connections');
    const res = await app.request('POST', '/v1/pharmacies', { key, body: { name: 'P', adapter: 'simulated', states: ['CA'], settings: { outOfStock: ['SKU\u0000'] } } });
    expectEnvelope(res, 400, 'validation_error');
    expect(res.body.error.param).toMatch(/^settings\.outOfStock/);
    expect(await countRows(app, 'pharmacy_connections')).toBe(before);
  });
});

describe('a JSON body nested 5,000 levels deep (40 KB)', () => {
  it('is a 400 before authentication, with no stack trace logged', async () => {
    const body = '['.repeat(5000) + ']'.repeat(5000) + ' '.repeat(30_000);
    const res = await app.request('POST', '/v1/patients', { rawBody: body, headers: json });
    expectEnvelope(res, 400, 'validation_error', 'json_too_deep');
    noFailureLogged();
  });
});

describe('bodies that are not JSON objects', () => {
  it('PATCH /patients/{id} with null, 123, true or []: 400 and the patient unchanged', async () => {
    const made = await app.request('POST', '/v1/patients', { key, body: { synthetic: true } });
    expect(made.status).toBe(201);
    for (const raw of ['null', '123', 'true', '[]']) {
      const res = await app.request('PATCH', `/v1/patients/${made.body.id}`, { key, rawBody: raw, headers: json });
      expectEnvelope(res, 400, 'validation_error', 'invalid_body');
    }
    const after = await app.request('GET', `/v1/patients/${made.body.id}`, { key });
    expect(after.body.updatedAt).toBe(made.body.updatedAt);
  });

  it('POST /auth/logout with []: 400, and no session ends', async () => {
    const user = await createUserAndLogin(app, tenantId, { email: 'two-sessions@repro.test', role: 'admin' });
    const second = await app.request('POST', '/v1/auth/login', { body: { email: 'two-sessions@repro.test', password: user.password } });
    expect(second.status).toBe(200);
    const res = await app.request('POST', '/v1/auth/logout', { key: user.token, rawBody: '[]', headers: json });
    expectEnvelope(res, 400, 'validation_error', 'invalid_body');
    for (const refreshToken of [user.refreshToken, second.body.refreshToken]) {
      expect((await app.request('POST', '/v1/auth/refresh', { body: { refreshToken } })).status).toBe(200);
    }
  });
});
