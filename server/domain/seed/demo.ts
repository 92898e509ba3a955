import { sql } from 'drizzle-orm';
import { tenants } from '@/db/schema';
import type { Db } from '@/server/db/types';
import { createApiKey } from '@/server/domain/developer/api-keys';
import { OPS_SCOPE } from '@/server/domain/developer/scopes';
import { createTenant } from '@/server/domain/ops/tenants';
import { SYSTEM_LICENSE_ACTOR } from '@/server/domain/auth/licenses';
import { createUser } from '@/server/domain/auth/users';
import { randomBase62 } from '@/server/lib/crypto';
import { SECRET_KEY_SCOPES } from '@/server/domain/developer/scopes';
import { seedDemoCatalog } from './demo-catalog';
import { seedDemoQuestionnaires } from './demo-intake';
import { DEMO_TENANT_NAME, seedDemoFlow } from './demo-flow';
import { seedDemoPortalPatient } from './demo-portal';

export interface DemoSeed {
  tenantId: string;
  sandboxKey: string;
  /** The sandbox embed key serving the demo flow (`/f/<key>`). */
  flowEmbedKey: string;
  people: { role: string; email: string; password: string }[];
}

const DEMO_NPI = '1234567893';

const SEEDER = { kind: 'key' as const, tenantId: null, livemode: true, scopes: [OPS_SCOPE], rateLimitKey: 'seed' };

/** Seeds a demo clinic into an empty database; returns null when the database already has tenants. */
export async function seedDemo(db: Db): Promise<DemoSeed | null> {
  return db.transaction(async (tx) => {
    const [{ count }] = await tx.select({ count: sql<number>`count(*)::int` }).from(tenants);
    if (count > 0) return null;
    const tenant = await createTenant(tx, { name: DEMO_TENANT_NAME, plan: 'free' });
    const created = await createApiKey(tx, SEEDER, tenant.id, {
      name: 'Demo sandbox key',
      mode: 'sandbox',
      keyType: 'secret',
      scopes: [],
      expiresInDays: null,
    });
    const people = [
      { role: 'admin' as const, email: 'admin@demo.clinic', password: randomBase62(16) },
      { role: 'provider' as const, email: 'provider@demo.clinic', password: randomBase62(16) },
    ];
    let providerId = '';
    for (const p of people) {
      const user = await createUser(tx, tenant.id, {
        ...p,
        name: p.role === 'admin' ? 'Demo Admin' : 'Dr. Demo Provider',
        ...(p.role === 'provider' ? { npi: DEMO_NPI, npiVerified: true, licensedStates: ['CA', 'NY', 'TX', 'FL', 'WA'], licensesAttested: true } : {}),
      }, SYSTEM_LICENSE_ACTOR);
      if (p.role === 'provider') providerId = user.id;
    }
    // Nested transactions become savepoints: the demo world is seeded whole or not at all.
    const asDemoKey = { kind: 'key' as const, tenantId: tenant.id, livemode: false, scopes: [...SECRET_KEY_SCOPES], keyId: created.apiKey.id, rateLimitKey: 'seed' };
    const catalog = await seedDemoCatalog(tx as unknown as Db, asDemoKey);
    await seedDemoQuestionnaires(tx as unknown as Db, asDemoKey, providerId, catalog.protocols);
    const flow = await seedDemoFlow(tx, asDemoKey, providerId);
    await seedDemoPortalPatient(tx as unknown as Db, asDemoKey, catalog.protocols.glp1Starter);
    return { tenantId: tenant.id, sandboxKey: created.key, flowEmbedKey: flow.embedKey, people };
  });
}
