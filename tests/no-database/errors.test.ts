import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenantWithKeys, expectEnvelope, startTestApp, type TestApp } from '../helpers/harness';

let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp({ MAX_BODY_BYTES: '2048' });
  key = (await createTenantWithKeys(app)).sandboxKey;
});
afterAll(async () => app?.close());

describe('error envelope and request ids', () => {
  it('puts X-Request-Id on successful responses', async () => {
    const res = await app.request('GET', '/v1/developer/keys', { key });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^req_[0-9a-z]{26}$/);
  });

  it('answers an unknown /v1 route with 404 not_found', async () => {
    expectEnvelope(await app.request('GET', '/v1/nope', { key }), 404, 'not_found', 'route_not_found');
    expectEnvelope(await app.request('GET', '/v1', { key }), 404, 'not_found');
  });

  it('answers an unknown non-API route with the envelope when no console is mounted', async () => {
    expectEnvelope(await app.request('GET', '/no-such-page'), 404, 'not_found');
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const res = await app.request('PUT', '/v1/developer/keys', { key, body: {} });
    expectEnvelope(res, 405, 'validation_error', 'method_not_allowed');
    expect(res.headers.get('allow')).toContain('GET');
  });

  it('rejects malformed JSON', async () => {
    const res = await app.request('POST', '/v1/developer/keys', { key, rawBody: '{"name": ', headers: { 'content-type': 'application/json' } });
    expectEnvelope(res, 400, 'validation_error', 'invalid_json');
  });

  it('rejects a body that is not JSON', async () => {
    const res = await app.request('POST', '/v1/developer/keys', { key, rawBody: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expectEnvelope(res, 415, 'validation_error', 'unsupported_media_type');
  });

  it('rejects a body over the documented size limit', async () => {
    const res = await app.request('POST', '/v1/developer/keys', { key, body: { name: 'x'.repeat(5000) } });
    expectEnvelope(res, 413, 'validation_error', 'body_too_large');
  });

  it('reads a body sent in chunks, refuses one that grows past the limit without declaring its length, and keeps serving', async () => {
    /** A POST with `Transfer-Encoding: chunked` (no Content-Length); resolves to the status, or to the error when the server cuts it. */
    const chunked = (parts: string[], end = true) =>
      new Promise<number | string>((resolve) => {
        const req = http.request(`${app.baseUrl}/v1/developer/keys`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
        for (const part of parts) req.write(part);
        if (end) req.end();
        else setImmediate(() => req.destroy());
      });
    expect(await chunked(['{"name":', ' "chunked"}'])).toBe(201);
    expect((await app.request('GET', '/v1/developer/keys', { key })).body.map((k: { name: string }) => k.name)).toContain('chunked');
    // Over MAX_BODY_BYTES (2048) only once the chunks arrive: the request is cut, as when it declares its length the answer is a 413.
    const over = await chunked(['{"name": "', 'x'.repeat(1500), 'x'.repeat(1500), '"}']);
    expect([413, 'ECONNRESET', 'EPIPE']).toContain(over);
    // A body that breaks off leaves nothing waiting: the next request is answered.
    await chunked(['{"name": "half'], false);
    expect((await app.request('GET', '/v1/developer/keys', { key })).status).toBe(200);
    const listed = await app.request('GET', '/v1/developer/keys', { key });
    expect(listed.body.filter((k: { name: string }) => k.name.startsWith('half') || k.name.startsWith('xxx'))).toEqual([]);
  });

  it('names the offending field on validation failures', async () => {
    const missing = await app.request('POST', '/v1/developer/keys', { key, body: {} });
    expectEnvelope(missing, 400, 'validation_error', 'parameter_missing');
    expect(missing.body.error.param).toBe('name');
    const wrongType = await app.request('POST', '/v1/developer/keys', { key, body: { name: 'a', mode: 'prod' } });
    expectEnvelope(wrongType, 400, 'validation_error', 'invalid_request');
    expect(wrongType.body.error.param).toBe('mode');
    const unknown = await app.request('POST', '/v1/developer/keys', { key, body: { name: 'a', colour: 'red' } });
    expectEnvelope(unknown, 400, 'validation_error', 'unknown_parameter');
    expect(unknown.body.error.param).toBe('colour');
  });

  it('answers 401 for missing, malformed and unknown credentials', async () => {
    expectEnvelope(await app.request('GET', '/v1/developer/keys'), 401, 'authentication_error', 'missing_api_key');
    expectEnvelope(await app.request('GET', '/v1/developer/keys', { headers: { authorization: 'Basic abc' } }), 401, 'authentication_error');
    expectEnvelope(await app.request('GET', '/v1/developer/keys', { key: 'nk_sandbox_' + 'A'.repeat(32) }), 401, 'authentication_error', 'invalid_api_key');
  });
});

describe('unexpected failures', () => {
  it('answers 500 api_error without internals when the service fails', async () => {
    const broken = await startTestApp();
    const { sandboxKey } = await createTenantWithKeys(broken);
    await broken.services.database.close();
    const { keyCache } = await import('@/server/domain/developer/key-cache');
    keyCache.clear();
    const res = await broken.request('GET', '/v1/developer/keys', { key: sandboxKey });
    expectEnvelope(res, 500, 'api_error', 'internal_error');
    // The request id is random base32 and may spell "pg" by chance: checked for its shape, the rest for internals.
    const requestId = res.body.error.request_id as string;
    expect(requestId).toMatch(/^req_[0-9a-z]{26}$/);
    expect(res.text.replace(requestId, '')).not.toMatch(/stack|at \w+ \(|PGlite|pg|closed|Error:/i);
    await broken.close().catch(() => undefined);
  });
});
