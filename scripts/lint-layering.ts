import { ESLint } from 'eslint';

/*
 * Issue 21, item 7: DESIGN §3's dependency rules are lint errors (eslint.config.js). `eslint .` holds the tree
 * to them; this holds the rules themselves: the planted imports below are what each rule exists to refuse,
 * and the allowed ones guard against a rule so broad that it would be switched off. Part of `npm run lint`
 * (a CI step), so ESLint runs once per CI run and not again inside the test suite (issue 32).
 */

type Case = [name: string, filePath: string, code: string];

const REFUSED: Case[] = [
  ['domain → jobs', 'server/domain/orders/planted.ts', "import { claimJobs } from '@/server/jobs/queue';\nexport const a = claimJobs;"],
  ['domain → jobs, relative', 'server/domain/orders/planted.ts', "import { claimJobs } from '../../jobs/queue';\nexport const a = claimJobs;"],
  ['domain → api', 'server/domain/orders/planted.ts', "import { keyOrUserProcedure } from '@/server/api/procedures';\nexport const a = keyOrUserProcedure;"],
  ['integrations → domain', 'server/integrations/pharmacies/planted.ts', "import { sendSigned } from '@/server/domain/webhooks/send';\nexport const a = sendSigned;"],
  ['db → domain', 'server/db/planted.ts', "import { requireTenant } from '@/server/domain/ops/tenants';\nexport const a = requireTenant;"],
  ['components → domain', 'components/console/planted.tsx', "import { approvalLapse } from '@/server/domain/orders/approval';\nexport const a = approvalLapse;"],
  ['shared rules → db', 'server/domain/intake/shared/planted.ts', "import type { Db } from '@/server/db/types';\nexport type A = Db;"],
  ['shared rules → domain service', 'server/domain/flows/shared/planted.ts', "import { approvalLapse } from '@/server/domain/orders/approval';\nexport const a = approvalLapse;"],
  ['shared rules → node', 'server/domain/intake/shared/planted.ts', "import { createHash } from 'node:crypto';\nexport const a = createHash;"],
  ['schema → domain service', 'db/schema/planted.ts', "import { approvalLapse } from '@/server/domain/orders/approval';\nexport const a = approvalLapse;"],
  ['components → db', 'components/console/planted.tsx', "import type { Db } from '@/server/db/types';\nexport type A = Db;"],
  ['page → domain', 'app/(console)/planted/page.tsx', "import { EVENT_TYPES } from '@/server/domain/events/catalog';\nexport const a = EVENT_TYPES;"],
  ['any in a component', 'components/console/planted.tsx', 'export const a = (x: any) => x;'],
  ['any in a page', 'app/(console)/planted/page.tsx', 'export const a = (x: any) => x;'],
  ['console lib → db', 'web/console/planted.ts', "import { orders } from '@/db/schema';\nexport const a = orders;"],
  ['console lib → custom server', 'web/console/planted.ts', "import { createApp } from '@/server/http/app';\nexport const a = createApp;"],
  ['page → custom server', 'app/(console)/planted/page.tsx', "import { isDraining } from '@/server/http/lifecycle';\nexport const a = isDraining;"],
  ['globalThis outside the process container', 'server/domain/developer/planted.ts', 'const held = globalThis as unknown as { cache?: Map<string, string> };\nexport const a = held;'],
  ['global outside the process container', 'web/console/planted.ts', 'export const a = (global as unknown as { flights?: number }).flights;'],
  ['router → drizzle', 'server/api/routers/orders/planted.ts', "import { eq } from 'drizzle-orm';\nexport const a = eq;"],
  ['router → schema', 'server/api/routers/orders/planted.ts', "import { orders } from '@/db/schema';\nexport const a = orders;"],
  ['router transaction', 'server/api/routers/orders/planted.ts', 'export const a = (db: any) => db.transaction(async () => 1);'],
  ['router query', 'server/api/routers/orders/planted.ts', 'export const a = (db: any) => db.select().from(1);'],
  ['worker → custom server', 'server/jobs/planted.ts', "import { serveMetrics } from '@/server/http/metrics-endpoint';\nexport const a = serveMetrics;"],
  ['worker → procedures', 'server/jobs/planted.ts', "import { appRouter } from '@/server/api/root';\nexport const a = appRouter;"],
  ['custom server → worker', 'server/http/planted.ts', "import { claimJobs } from '@/server/jobs/queue';\nexport const a = claimJobs;"],
  ['custom server → worker, relative', 'server/http/planted.ts', "import { claimJobs } from '../jobs/queue';\nexport const a = claimJobs;"],
  ["custom server → console client code", 'server/http/planted.ts', "import { readSessionCookie } from '@/web/console/jwt';\nexport const a = readSessionCookie;"],
  ['web process entry → console client code', 'server/http/main.ts', "import { readSessionCookie } from '@/web/console/jwt';\nexport const a = readSessionCookie;"],
  ['custom server → cluster', 'server/http/planted.ts', "import { runCluster } from '@/server/cluster/cluster';\nexport const a = runCluster;"],
  ['cluster → custom server', 'server/cluster/planted.ts', "import { serveMetrics } from '@/server/http/metrics-endpoint';\nexport const a = serveMetrics;"],
  ['cluster → database', 'server/cluster/planted.ts', "import { openDatabase } from '@/server/db/client';\nexport const a = openDatabase;"],
  ['console client code → components', 'web/trpc/planted.ts', "import type { PublicFlow } from '@/components/flows/types';\nexport type A = PublicFlow;"],
  ['component → procedures (a value)', 'components/console/planted.tsx', "import { appRouter } from '@/server/api/root';\nexport const a = appRouter;"],
  ['sdk → project', 'sdk/src/planted.ts', "import { errors } from '@/server/lib/errors';\nexport const a = errors;"],
  ['sdk → project, relative', 'sdk/src/planted.ts', "import { errors } from '../../server/lib/errors';\nexport const a = errors;"],
  ['example → project', 'examples/node-quickstart/planted.ts', "import { EVENT_TYPES } from '@/server/domain/events/catalog';\nexport const a = EVENT_TYPES;"],
];

const ALLOWED: Case[] = [
  ['components → shared rules', 'components/intake/planted.tsx', "import { evaluate } from '@/server/domain/intake/shared/engine';\nexport const a = evaluate;"],
  ['schema → shared rules', 'db/schema/planted.ts', "import type { FlowDocumentShape } from '@/server/domain/flows/shared/shapes';\nexport type A = FlowDocumentShape;"],
  ['shared rules → lib', 'server/domain/intake/shared/planted.ts', "import * as z from '@/server/lib/zod';\nexport const a = z;"],
  ['domain → db outbox', 'server/domain/orders/planted.ts', "import { enqueueJobs } from '@/server/db/outbox';\nexport const a = enqueueJobs;"],
  ['domain → integrations', 'server/domain/webhooks/planted.ts', "import { agentFor } from '@/server/integrations/net/agent';\nexport const a = agentFor;"],
  ['router → domain, db types', 'server/api/routers/orders/planted.ts', "import type { Db } from '@/server/db/types';\nimport { requireTenant } from '@/server/domain/ops/tenants';\nexport const a = (db: Db) => requireTenant(db, 'x');"],
  ['page → router caller', 'app/(console)/planted/page.tsx', "import { trpcServer } from '@/web/trpc/server';\nexport const a = trpcServer;"],
  ['console lib → process services', 'web/console/planted.ts', "import { processServices } from '@/server/api/process-services';\nexport const a = processServices;"],
  ['the process container → globalThis', 'server/lib/process-container.ts', 'export const a = globalThis;'],
  ['web process entry → worker', 'server/http/main.ts', "import { startProcessWorker } from '@/server/jobs/global';\nexport const a = startProcessWorker;"],
  ['custom server → domain', 'server/http/planted.ts', "import { ensureOpsKey } from '@/server/domain/ops/tenants';\nexport const a = ensureOpsKey;"],
  ['worker → metrics listener', 'server/jobs/planted.ts', "import { startMetricsListener } from '@/server/lib/metrics-scrape';\nexport const a = startMetricsListener;"],
  ['cluster → metrics listener', 'server/cluster/planted.ts', "import { startMetricsListener } from '@/server/lib/metrics-scrape';\nexport const a = startMetricsListener;"],
  ['console client code → procedures', 'web/trpc/planted.ts', "import { MODE_COOKIE } from '@/server/api/console-mode';\nexport const a = MODE_COOKIE;"],
  ['component → router types', 'components/flows/planted.ts', "import type { AppRouter } from '@/server/api/root';\nexport type A = AppRouter;"],
  ['sdk → its dependency', 'sdk/src/planted.ts', "import createClient from 'openapi-fetch';\nexport const a = createClient;"],
  ['router schema file → enum list', 'server/api/routers/orders/planted.types.ts', "import { ORDER_STATUSES } from '@/db/schema/orders';\nexport const a = ORDER_STATUSES;"],
];

const LAYER_RULES = new Set(['@typescript-eslint/no-restricted-imports', 'no-restricted-syntax', 'no-restricted-globals', '@typescript-eslint/no-explicit-any']);
const eslint = new ESLint({ cwd: process.cwd() });

async function breaches([, filePath, code]: Case): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId && LAYER_RULES.has(m.ruleId)).map((m) => m.message);
}

const failures: string[] = [];
for (const planted of REFUSED) if ((await breaches(planted)).length === 0) failures.push(`not refused: ${planted[0]} (${planted[1]})`);
for (const planted of ALLOWED) {
  const found = await breaches(planted);
  if (found.length) failures.push(`refused but allowed by design: ${planted[0]} (${planted[1]}): ${found.join('; ')}`);
}
for (const f of failures) console.error(f);
console.log(failures.length ? `Layering rules: ${failures.length} case(s) wrong` : `Layering rules: ${REFUSED.length} planted breaches refused, ${ALLOWED.length} allowed imports accepted`);
process.exit(failures.length ? 1 : 0);
