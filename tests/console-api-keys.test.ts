import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '@/server/api/root';
import { type Clinic, createTenantWithKeys, createUserAndLogin, startTestApp, type TestApp } from './helpers/harness';

/** The API keys page's list: the /v1 list, with the creating person named, to sessions holding keys.manage. */
let app: TestApp;
let a: Clinic;
beforeAll(async () => {
  app = await startTestApp();
  a = await createTenantWithKeys(app, 'Keys Names Clinic');
});
afterAll(async () => app?.close());

const client = (token: string) => createTRPCClient<AppRouter>({ links: [httpLink({ url: `${app.baseUrl}/api/trpc`, headers: { authorization: `Bearer ${token}` } })] });
const stamp = () => `${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;

describe('developer.apiKeysWithCreators', () => {
  it('names the person who created a key, also after they are deactivated, for a developer without users.manage', async () => {
    const owner = await createUserAndLogin(app, a.tenantId, { email: `owner-${stamp()}@clinic.test`, role: 'owner' });
    const admin = await createUserAndLogin(app, a.tenantId, { email: `admin-${stamp()}@clinic.test`, role: 'admin' });
    expect((await app.request('PATCH', `/v1/users/${admin.id}`, { key: owner.token, body: { name: 'Ada Admin' } })).status).toBe(200);
    const made = await client(admin.token).developer.createApiKey.mutate({ name: 'Made by Ada', keyType: 'restricted', scopes: ['orders.read'] });
    const dev = await createUserAndLogin(app, a.tenantId, { email: `dev-${stamp()}@clinic.test`, role: 'developer' });
    expect((await app.request('DELETE', `/v1/users/${admin.id}`, { key: owner.token })).status).toBe(200);

    const keys = await client(dev.token).developer.apiKeysWithCreators.query({});
    const rest = await app.request('GET', '/v1/developer/keys', { key: dev.token });
    expect(keys.map((k) => k.id)).toEqual(rest.body.map((k: { id: string }) => k.id));
    const row = keys.find((k) => k.id === made.apiKey.id);
    expect(row?.createdBy).toEqual({ type: 'user', id: admin.id });
    expect(row?.createdByName).toBe('Ada Admin');
    expect(keys.filter((k) => k.createdBy?.type !== 'user').every((k) => k.createdByName === null)).toBe(true);
  });

  it('is refused to a machine key and to a role without keys.manage', async () => {
    const provider = await createUserAndLogin(app, a.tenantId, { email: `dr-${stamp()}@clinic.test`, role: 'provider' });
    const byKey = await client(a.sandboxKey).developer.apiKeysWithCreators.query({}).catch((e: unknown) => e);
    expect(byKey).toBeInstanceOf(TRPCClientError);
    const byProvider = await client(provider.token).developer.apiKeysWithCreators.query({}).catch((e: unknown) => e);
    expect(byProvider).toBeInstanceOf(TRPCClientError);
    expect((byProvider as TRPCClientError<AppRouter>).data).toMatchObject({ code: 'missing_scope', httpStatus: 403 });
  });
});
