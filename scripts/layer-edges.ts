/*
 * Issue 51, item 4: every import from one layer into another is an edge declared here, with the one line of why
 * that docs/architecture.md ("Every edge between layers") shows beside it. tests/no-database/layer-edges.test.ts
 * computes the edges from the source and fails on an import that makes an undeclared edge (naming the file and
 * the import), on a declared edge nothing uses any more, and on a difference between this table and the page.
 * The edges that must not exist and did are also refused file by file by eslint.config.js
 * (planted cases in scripts/lint-layering.ts).
 */

/** The layers: a folder (or the one file proxy.ts), none inside another. tests/, e2e/, bench/ and the root's config files are no layer. */
export const LAYERS = [
  'app',
  'web',
  'components',
  'proxy.ts',
  'server/http',
  'server/api',
  'server/domain',
  'server/db',
  'server/jobs',
  'server/integrations',
  'server/lib',
  'server/cluster',
  'db',
  'bin',
  'scripts',
  'sdk',
  'examples',
] as const;

export type Layer = (typeof LAYERS)[number];

export interface LayerEdge {
  from: Layer;
  to: Layer;
  why: string;
  /** When set, the only files of `from` that may import `to`. */
  only?: readonly string[];
}

export const LAYER_EDGES: readonly LayerEdge[] = [
  // The pages and what they share.
  { from: 'app', to: 'components', why: 'pages render the React components of their area' },
  { from: 'app', to: 'web', why: 'pages reach data through the tRPC clients and read the console session (DESIGN decision 30)' },
  { from: 'app', to: 'server/lib', why: 'helpers with no area that a page may render (the list of US states)' },
  {
    from: 'app',
    to: 'server/api',
    why: "types only: the services the custom server renders the patient pages and runs the portal's actions with (app/_patient-pages/)",
    only: ['app/_patient-pages/index.ts', 'app/_patient-pages/render-flow-page.tsx', 'app/_patient-pages/render-portal-page.tsx', 'app/_patient-pages/portal-actions.ts'],
  },
  { from: 'proxy.ts', to: 'web', why: "Next.js's proxy refreshes the console session before a page reads it" },
  { from: 'components', to: 'web', why: 'components call the typed tRPC client and read the console session' },
  { from: 'components', to: 'server/api', why: "types only (lint): the router's inferred types and a procedure's schemas" },
  { from: 'components', to: 'server/domain', why: "an area's pure shared/ rules only (lint), which the browser runs too" },
  { from: 'components', to: 'server/lib', why: 'helpers with no area that the browser runs too (the list of US states)' },
  { from: 'web', to: 'server/api', why: 'the in-process caller, the process services, the router types and the console mode cookie' },
  { from: 'web', to: 'server/lib', why: 'logging, ids, the process container and the trusted-proxy https flag' },
  // The web process.
  { from: 'server/http', to: 'server/api', why: '/v1 and /api/trpc call the procedures; the envelope and the route table are the API’s' },
  { from: 'server/http', to: 'server/domain', why: 'what is no tRPC procedure: the services built at start, the demo seed, the event stream, the framed, simulated and unsubscribe pages, FHIR' },
  { from: 'server/http', to: 'server/db', why: 'opens the database at start (services.ts); /readyz asks it and reads its migration status' },
  { from: 'server/http', to: 'server/integrations', why: 'builds the mailer and the Stripe payments into the services at start' },
  {
    from: 'server/http',
    to: 'server/jobs',
    why: "only server/http/main.ts, the web process's entry: starts its worker (RUN_WORKER) and reports the job queue's depth",
    only: ['server/http/main.ts'],
  },
  {
    from: 'server/http',
    to: 'app',
    why: "only server/http/main.ts, the web process's entry: hands the app the patient pages it renders without Next.js (app/_patient-pages/)",
    only: ['server/http/main.ts'],
  },
  { from: 'server/http', to: 'server/lib', why: 'config, errors, ids, logging, metrics' },
  // Procedures, rules, adapters, data.
  { from: 'server/api', to: 'server/domain', why: 'a procedure calls one domain service' },
  { from: 'server/api', to: 'server/db', why: 'types only: the Db handles in the context and the idempotency middleware' },
  { from: 'server/api', to: 'db', why: "a `.types.ts` takes an enum's values or a row type from the schema (lint: routers hold no queries)" },
  { from: 'server/api', to: 'server/integrations', why: 'the payments port the services carry, the LLM client the AI procedures hand the domain, pharmacy settings schemas' },
  { from: 'server/api', to: 'server/lib', why: 'zod with our rules, errors, config, ids' },
  { from: 'server/domain', to: 'server/db', why: 'scoped data access, transactions, the outbox' },
  { from: 'server/domain', to: 'db', why: 'the tables' },
  { from: 'server/domain', to: 'server/integrations', why: 'the adapters behind their ports: pharmacies, mail, payments, LLM, the pinned HTTP agent' },
  { from: 'server/domain', to: 'server/lib', why: 'what has no area' },
  { from: 'server/integrations', to: 'server/lib', why: 'config, clock, ids, logging, zod with our rules, the SSRF rules' },
  { from: 'server/db', to: 'db', why: 'the outbox writes the jobs table' },
  { from: 'server/db', to: 'server/lib', why: 'logging, ids, clock, errors' },
  { from: 'db', to: 'server/domain', why: "an area's pure shared/ rules only (lint): the shapes of JSON columns" },
  // The worker process and the cluster's primary.
  { from: 'server/jobs', to: 'server/domain', why: 'a job handler calls the domain' },
  { from: 'server/jobs', to: 'server/db', why: 'opens the database (npm run worker), claims jobs, listens for NOTIFY' },
  { from: 'server/jobs', to: 'db', why: 'the queue reads and writes the jobs table' },
  { from: 'server/jobs', to: 'server/integrations', why: 'the mailer, for the mail a job sends (billing notices, sign-in links)' },
  { from: 'server/jobs', to: 'server/lib', why: 'config, clock, logging, the METRICS_PORT listener' },
  { from: 'server/cluster', to: 'server/lib', why: 'config, logging, metrics and the METRICS_PORT listener the primary holds' },
  // Entry points and what stands apart.
  { from: 'bin', to: 'server/domain', why: "operator commands run the domain's rules on the database; dev commands read the event catalog" },
  { from: 'bin', to: 'server/db', why: 'operator commands open the database (run-cli.ts)' },
  { from: 'bin', to: 'server/api', why: 'the ops API’s request schemas: the CLI accepts exactly what the API accepts' },
  { from: 'bin', to: 'server/integrations', why: "the pharmacy protocol check (pharmacy-commands.ts) calls an implementation as the http adapter would" },
  { from: 'bin', to: 'server/lib', why: 'config, errors, the auth secret, the list of US states' },
  { from: 'bin', to: 'sdk', why: 'dev commands (listen, trigger) talk to a running server through the SDK' },
  { from: 'scripts', to: 'server/http', why: '`npm start` runs the web process (start.ts)' },
  { from: 'scripts', to: 'server/cluster', why: '`npm start` with WEB_CONCURRENCY > 1 runs the cluster (start.ts)' },
  { from: 'scripts', to: 'server/api', why: 'the OpenAPI document from the router (sdk-types.ts, lint-openapi.ts)' },
  { from: 'scripts', to: 'server/integrations', why: 'the pharmacy protocol document, linted beside the API (lint-openapi.ts)', only: ['scripts/lint-openapi.ts'] },
  { from: 'scripts', to: 'server/lib', why: 'the configuration, checked before any build or fork (start.ts)' },
  { from: 'examples', to: 'sdk', why: 'an example uses the SDK as its package (@fulfillment-rail/sdk), nothing else of the project' },
];
