import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countRows, createTenantWithKeys, expectEnvelope, startTestApp, type TestApp } from './helpers/harness';

let app: TestApp;
let key: string;
beforeAll(async () => {
  app = await startTestApp();
  key = (await createTenantWithKeys(app)).liveKey;
});
afterAll(async () => app?.close());

const FIELDS = ['name', 'mode', 'keyType', 'scopes', 'expiresInDays'] as const;

/** A body that breaks at least one rule of CreateApiKey. */
const badBody = fc.oneof(
  fc.anything().filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)),
  // The name is trimmed before its length is checked: a long run of spaces around one character is a good name.
  fc.record({ name: fc.oneof(fc.constant(''), fc.string({ minLength: 121, maxLength: 200 }).filter((s) => s.trim().length === 0 || s.trim().length > 120), fc.integer(), fc.constant(null), fc.array(fc.string())) }),
  fc.record({ name: fc.constant('ok'), mode: fc.string().filter((s) => s !== 'sandbox' && s !== 'live') }),
  fc.record({ name: fc.constant('ok'), keyType: fc.string().filter((s) => s !== 'secret' && s !== 'restricted') }),
  fc.record({ name: fc.constant('ok'), keyType: fc.constant('restricted'), scopes: fc.constant([]) }),
  fc.record({ name: fc.constant('ok'), scopes: fc.oneof(fc.string(), fc.integer(), fc.array(fc.integer(), { minLength: 1 })) }),
  fc.record({ name: fc.constant('ok'), expiresInDays: fc.oneof(fc.integer({ max: 0 }), fc.string(), fc.integer({ min: 3651 })) }),
  fc.record({ name: fc.constant('ok'), extra: fc.anything().filter((v) => v !== undefined) }),
  fc.dictionary(fc.string().filter((k) => !(FIELDS as readonly string[]).includes(k) && k !== '__proto__'), fc.anything(), { minKeys: 1 }),
);

describe('POST /developer/keys with bad bodies', () => {
  it('always answers a 400 envelope and writes nothing', async () => {
    const before = await countRows(app, 'api_keys');
    await fc.assert(
      fc.asyncProperty(badBody, async (body) => {
        const res = await app.request('POST', '/v1/developer/keys', { key, rawBody: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
        expectEnvelope(res, 400, 'validation_error');
      }),
      { numRuns: 150 },
    );
    expect(await countRows(app, 'api_keys')).toBe(before);
  });
});
