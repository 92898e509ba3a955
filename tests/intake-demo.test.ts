import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo, type DemoSeed } from '@/server/domain/seed/demo';
import { libraryDocuments } from '@/server/domain/intake/library-documents';
import { canonicalHash } from '@/server/lib/canonical';
import { startTestApp, type TestApp } from './helpers/harness';

let app: TestApp;
let seed: DemoSeed;

beforeAll(async () => {
  app = await startTestApp();
  seed = (await seedDemo(app.services.database.db))!;
});
afterAll(async () => app?.close());

describe('the demo clinic’s questionnaires', () => {
  it('lists the library’s questionnaires, each approved by the demo provider and wired to a protocol of the clinic', async () => {
    const provider = seed.people.find((p) => p.role === 'provider')!;
    const login = await app.request('POST', '/v1/auth/login', { body: { email: provider.email, password: provider.password } });
    const me = await app.request('GET', '/v1/auth/me', { key: login.body.accessToken });
    const providerId = me.body.user.id as string;
    expect(providerId).toMatch(/^usr_/);

    const listed = (await app.request('GET', '/v1/intake/questionnaires', { key: seed.sandboxKey })).body as any[];
    const library = libraryDocuments();
    // Three once the full library is in (issue 22); the seed takes whatever the library holds.
    expect(listed).toHaveLength(library.length);
    expect(listed.map((q) => q.key).sort()).toEqual(library.map((d) => d.key).sort());
    const protocols = (await app.request('GET', '/v1/protocols', { key: seed.sandboxKey })).body as { id: string; items: unknown[] }[];
    for (const q of listed) {
      expect(q).toMatchObject({ status: 'approved', version: 1, origin: 'staff', approvedBy: providerId, livemode: false, contentHash: canonicalHash(q.document) });
      const protocol = protocols.find((p) => p.id === q.document.protocolId);
      expect(protocol?.items.length).toBeGreaterThan(0);
      expect((await app.request('GET', `/v1/intake/questionnaires/${q.key}`, { key: seed.sandboxKey })).body.id).toBe(q.id);
    }
    expect((await app.request('GET', '/v1/intake/questionnaires/drafts', { key: seed.sandboxKey })).body).toEqual([]);
  });
});
