import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderSdkTypes, SDK_TYPES_FILE } from '@/scripts/sdk-types';
import { startTestApp, type TestApp } from '../helpers/harness';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

describe('sdk/src/generated/openapi.ts', () => {
  it('is exactly what openapi-typescript makes of the served /v1/openapi.json (run `npm run sdk:types` after an API change)', async () => {
    const res = await app.request('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    const fresh = await renderSdkTypes(res.body);
    const committed = readFileSync(SDK_TYPES_FILE, 'utf8');
    // Compared whole: any difference means the SDK's types no longer describe the API.
    expect(committed === fresh, 'sdk/src/generated/openapi.ts is stale: run `npm run sdk:types` and commit it').toBe(true);
  });
});
