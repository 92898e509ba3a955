import cluster from 'node:cluster';
import { loadConfig, publicBaseUrl, truthy } from '@/server/lib/config';
import { logger } from '@/server/lib/logger';
import { seedDemo, type DemoSeed } from '@/server/domain/seed/demo';
import { demoFlowEmbedKey } from '@/server/domain/seed/demo-flow';
import { DEMO_PORTAL_PATIENT } from '@/server/domain/seed/demo-portal';
import { portalUrl } from '@/server/domain/patients/portal-link';
import { createPatientPages, createPortalActions } from '@/app/_patient-pages';
import { createApp, type Fallback } from './app';
import { PATIENT_ASSET_PREFIX } from './patient-pages';
import { createServices } from './services';
import { gracefulShutdown } from './lifecycle';
import { startMetricsListener } from '@/server/lib/metrics-scrape';
import { observe } from './observe';
// The one module of the custom server that imports the worker (eslint.config.js): the web process starts its
// own (RUN_WORKER) through the process container's worker slot, and reports the job queue's depth.
import { startProcessWorker, stopProcessWorker } from '@/server/jobs/global';
import { registerMetricsProbes } from '@/server/jobs/metrics-probes';
import { createServiceServer } from './http-server';

// Under `npm start` with WEB_CONCURRENCY > 1 (scripts/start.ts), each process has a slot; slot 0 seeds and prints.
const firstOfCluster = !cluster.isWorker || process.env.FR_WEB_SLOT === '0';

/** Starts the one process of the embedded deployment: API, console and hosted pages on one port. */
async function main() {
  const config = loadConfig();
  const services = await createServices(config);
  registerMetricsProbes(services.database);
  const worker = truthy(config.RUN_WORKER) ? await startProcessWorker(services.database, config) : undefined;
  const seedDefault = !config.DATABASE_URL;
  const base = publicBaseUrl(config);
  const seeded = (config.SEED_DEMO ? truthy(config.SEED_DEMO) : seedDefault) ? await seedDemo(services.database.db) : null;
  if (seeded) printDemo(seeded, base, config.MAIL_OUTBOX_DIR);
  else if (firstOfCluster) {
    // The demo flow's key is public by design, so every start can point at it (the secret key was shown once).
    const flowKey = await demoFlowEmbedKey(services.database.db).catch(() => null);
    if (flowKey) process.stdout.write(['', ...demoFlowLines(base, flowKey), ...demoPortalLines(base, flowKey, config.MAIL_OUTBOX_DIR), ''].join('\n') + '\n');
  }

  let fallback: Fallback | undefined;
  if (process.env.FR_NO_NEXT !== '1') {
    const next = (await import('next')).default;
    const nextApp = next({ dev: config.NODE_ENV === 'development', dir: process.cwd(), port: config.PORT });
    await nextApp.prepare();
    const nextHandler = nextApp.getRequestHandler();
    fallback = (req, res) => nextHandler(req, res);
  }

  // The hosted flow page, the frame and the portal's pages, from the build's own assets; in development Next.js
  // renders them. The portal's writes are the app's in every mode.
  const patientPages = fallback && config.NODE_ENV !== 'development' ? createPatientPages(services, PATIENT_ASSET_PREFIX) : undefined;
  const portalActions = createPortalActions(services);
  const server = createServiceServer(observe(createApp(services, fallback, { worker, patientPages, portalActions }), config));
  server.keepAliveTimeout = 65_000;
  server.listen(config.PORT, config.HOST, () => {
    logger.info({ port: config.PORT, database: services.database.kind }, `Fulfillment Rail listening on http://localhost:${config.PORT}`);
  });
  // Under a cluster the primary holds METRICS_PORT and merges every process's figures.
  const metricsServer = cluster.isWorker ? undefined : startMetricsListener(config);

  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await gracefulShutdown({
      server,
      delayMs: config.SHUTDOWN_DELAY_MS,
      drainMs: config.SHUTDOWN_DRAIN_MS,
      extraServers: metricsServer ? [metricsServer] : [],
      stopWorker: (graceMs) => stopProcessWorker({ graceMs }),
      closeServices: () => services.close(),
    });
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

/** Where to open the demo clinic's patient flow: the hosted page and the widget on a sample page. */
function demoFlowLines(base: string, flowKey: string) {
  return [`  Patient flow (sandbox):  ${base}/f/${flowKey}`, `  Embedded on a page:      ${base}/embed/demo?mode=flow`];
}

/**
 * The demo clinic's patient portal (DESIGN decision 39) on the same sandbox key, and how its demo patient signs
 * in: a sandbox sign-in code always goes to the mail outbox, whatever the deployment's mail settings.
 */
function demoPortalLines(base: string, flowKey: string, outbox: string) {
  return [
    `  Patient portal (sandbox): ${portalUrl(base, flowKey)}`,
    `    sign in as ${DEMO_PORTAL_PATIENT.email}, born ${DEMO_PORTAL_PATIENT.dateOfBirth}; the code arrives in ${outbox}`,
    '    (their order waits for the demo provider: approve it in the console and watch it ship)',
  ];
}

function printDemo({ tenantId, sandboxKey: key, flowEmbedKey, people }: DemoSeed, base: string, outbox: string) {
  const provider = people.find((p) => p.role === 'provider');
  // Printed once, on the first start of an empty database: the key is not retrievable later.
  process.stdout.write(
    [
      '',
      '  Demo clinic created (sandbox)',
      `  tenant:       ${tenantId}`,
      `  sandbox key:  ${key}`,
      ...people.map((p) => `  ${p.role.padEnd(9)}     ${p.email}  password: ${p.password}`),
      '  (the provider enrolls two-factor authentication on the Account page before approving orders)',
      '',
      `  Try:  curl -H "Authorization: Bearer ${key}" ${base}/v1/developer/keys`,
      `  Webhooks on your machine:  npm run cli -- listen --api-key ${key} --base-url ${base} --forward-to http://localhost:4242/webhooks`,
      `  Make an event happen:      npm run cli -- trigger order.shipped --api-key ${key} --base-url ${base} --provider-email ${provider?.email ?? '…'} --provider-password ${provider?.password ?? '…'}`,
      `  API reference: ${base}/v1/openapi.json   Console: ${base}/`,
      ...demoFlowLines(base, flowEmbedKey),
      ...demoPortalLines(base, flowEmbedKey, outbox),
      '',
    ].join('\n') + '\n',
  );
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
