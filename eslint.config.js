import tseslint from 'typescript-eslint';

// DESIGN §3's dependency rules, one entry per layer. A pattern matches the `@/` alias and a relative path
// that climbs to a folder of that name, so `../../jobs/queue` cannot slip past what `@/server/jobs` may not.
const layer = (...folders) => {
  const relative = [...new Set(folders.map((f) => f.replace(/^server\//, '')))];
  return `^(@/(${folders.join('|')})|(\\.\\./)+(${relative.join('|')}))(/|$)`;
};
const forbid = (message, ...folders) => ({ regex: layer(...folders), message });
// An area's pure rules (the questionnaire engine, flow shapes) live in `server/domain/<area>/shared/`: no I/O,
// so the browser, db/schema and the domain may all import them. Everything else of the domain stays closed.
const domainExceptShared = {
  regex: '^(@/server/domain|(\\.\\./)+domain)(?!/[^/]+/shared(/|$))(/|$)',
  message: "Only an area's pure rules (server/domain/<area>/shared/) may be imported here; the rest of the domain stays on the server.",
};

// Schemas of outside input refuse NUL in every string (server/lib/zod.ts); plain zod would not.
const zodPath = { name: 'zod', message: "Use `import * as z from '@/server/lib/zod'` (strings refuse NUL).", allowTypeImports: true };

// Pages and the console's helpers read data only through the router (DESIGN decision 30): the typed tRPC client
// in the browser, the in-process caller on the server. The custom server is what loads Next.js, not the reverse:
// what it shares with pages (the services) is in the process container (server/api/process-services.ts).
const pagesReachDataThroughTheRouter = [
  domainExceptShared,
  forbid('Console pages reach data only through the tRPC router (DESIGN decision 30), never the domain, the database, the worker or adapters.', 'server/db', 'server/jobs', 'server/integrations', 'db'),
  forbid('Pages and the console helpers never import the custom server (server/http); take shared process state from the process container.', 'server/http'),
];

// The custom server (server/http), the worker (server/jobs) and the cluster's primary (server/cluster) are three
// kinds of process; none imports another's code but where docs/architecture.md draws it. What two of them need
// (the metrics scrape and its listener) lives below them, in server/lib.
const customServerRefuses = [
  forbid("The custom server never imports the pages or the console's client code (web/): what both need lives in server/api or server/lib.", 'web', 'app', 'components'),
  forbid('The cluster forks the custom server, not the reverse: server/http never imports server/cluster.', 'server/cluster'),
];

const LAYERS = [
  {
    files: ['server/domain/**/*.ts'],
    patterns: [forbid('Domain code stays below the transports and the worker (DESIGN §3); move shared code to server/db or server/lib.', 'server/api', 'server/http', 'server/jobs', 'app')],
  },
  {
    files: ['server/http/**/*.ts'],
    ignores: ['server/http/main.ts'],
    patterns: [
      ...customServerRefuses,
      forbid("Only server/http/main.ts, the web process's entry, imports the worker (it starts it under RUN_WORKER and reports the queue's depth); the rest of the custom server never imports server/jobs.", 'server/jobs'),
    ],
  },
  {
    // The web process's entry hands the app the patient pages it renders without Next.js (app/_patient-pages/,
    // docs/decisions/flows.md), as it hands it Next.js itself; the rest of app/ stays out.
    files: ['server/http/main.ts'],
    patterns: [
      forbid("The custom server never imports the pages or the console's client code (web/): what both need lives in server/api or server/lib.", 'web', 'components'),
      { regex: '^@/app(?!/_patient-pages$)(/|$)', message: 'The web process imports only app/_patient-pages/ (its entry, index.ts) of the pages.' },
    ],
  },
  {
    files: ['server/jobs/**/*.ts'],
    patterns: [forbid('The worker never imports the custom server, the procedures, the cluster or the pages; what it shares with them lives in server/lib, server/db or the domain.', 'server/http', 'server/api', 'server/cluster', 'app', 'components', 'web')],
  },
  {
    files: ['server/cluster/**/*.ts'],
    patterns: [forbid("The cluster's primary serves no request and opens no database: it imports only server/lib.", 'server/http', 'server/api', 'server/jobs', 'server/domain', 'server/db', 'server/integrations', 'db', 'app', 'components', 'web')],
  },
  {
    files: ['server/integrations/**/*.ts'],
    paths: [zodPath],
    patterns: [
      forbid('Integrations never import domain code (DESIGN §3): shared helpers live in server/integrations/net or server/lib.', 'server/domain'),
      forbid('Integrations are adapters below the domain; they never reach the transports or the worker.', 'server/api', 'server/http', 'server/jobs', 'app'),
    ],
  },
  {
    files: ['server/db/**/*.ts'],
    patterns: [forbid('server/db sits below the domain (DESIGN §3): it never imports domain, transports, worker or adapters.', 'server/domain', 'server/api', 'server/http', 'server/jobs', 'server/integrations', 'app')],
  },
  {
    files: ['server/lib/**/*.ts'],
    patterns: [forbid('server/lib is the bottom layer: it imports only itself.', 'server/domain', 'server/api', 'server/http', 'server/jobs', 'server/integrations', 'server/db', 'server/console', 'db', 'app', 'components', 'web')],
  },
  {
    files: ['server/domain/*/shared/**/*.ts'],
    patterns: [
      domainExceptShared,
      forbid("An area's shared rules are pure (the browser runs them): they import only server/lib and other shared rules.", 'server/db', 'server/api', 'server/http', 'server/jobs', 'server/integrations', 'db', 'app', 'components', 'web'),
      { regex: '^node:', message: "An area's shared rules run in the browser too: no Node.js modules." },
    ],
  },
  {
    files: ['db/**/*.ts'],
    patterns: [domainExceptShared, forbid('Tables sit below the domain: they import only server/lib and the areas’ shared rules.', 'server/api', 'server/http', 'server/jobs', 'server/integrations', 'app', 'components', 'web')],
  },
  {
    files: ['components/**/*.{ts,tsx}'],
    patterns: [
      domainExceptShared,
      forbid("Components never import the database or domain code (DESIGN §3); take types from the router's inferred types.", 'server/db', 'db'),
      { regex: layer('server/api'), message: "Components take only types from server/api (the router's inferred types, a procedure's schemas); data comes through the tRPC client in web/.", allowTypeImports: true },
    ],
  },
  {
    files: ['app/**/*.{ts,tsx}', 'proxy.ts'],
    patterns: pagesReachDataThroughTheRouter,
  },
  {
    // web/ is what pages and components use to reach the server; it sits below both and imports neither.
    files: ['web/**/*.{ts,tsx}'],
    patterns: [...pagesReachDataThroughTheRouter, forbid('web/ sits below the pages and the components: it never imports them (a shared type comes from the router).', 'components', 'app')],
  },
  {
    files: ['server/api/**/*.ts'],
    paths: [zodPath],
  },
  {
    // The SDK is published on its own (issue 38): it may import only itself and its package.json dependencies,
    // never the project (no `@/` alias, no path out of sdk/), so `npm pack` ships something that runs.
    files: ['sdk/**/*.ts', 'examples/**/*.{ts,mjs}'],
    ignores: ['examples/**/*.test.ts'],
    patterns: [
      { regex: '^@/', message: 'The SDK and the examples stand alone: import `@fulfillment-rail/sdk` or a path inside their own folder, never the project.' },
      { regex: '^(\\.\\./)+(server|db|app|web|components|bin|scripts|tests)(/|$)', message: 'The SDK and the examples stand alone: never import the project.' },
    ],
  },
  {
    // Routers hold no queries or transactions: they call a domain service (DESIGN §3). A `.types.ts` may
    // still take a value such as an enum's list from the schema, for its zod schemas.
    files: ['server/api/routers/**/*.ts'],
    ignores: ['server/api/routers/**/*.types.ts'],
    paths: [zodPath, { name: 'drizzle-orm', message: 'Routers hold no queries: call a domain service.', allowTypeImports: true }],
    patterns: [
      { regex: '^drizzle-orm/', message: 'Routers hold no queries: call a domain service.', allowTypeImports: true },
      { regex: layer('server/db', 'db'), message: 'Routers hold no queries: call a domain service (types may be imported).', allowTypeImports: true },
    ],
    syntax: [
      {
        selector: "CallExpression[callee.property.name=/^(transaction|select|selectDistinct|insert|update|delete|execute)$/]",
        message: 'Routers hold no queries or transactions: call a domain service that takes the Db handle.',
      },
    ],
  },
];

export default tseslint.config(
  { ignores: ['node_modules/', '.next/', '.data/', 'dist/', 'db/migrations/', 'next-env.d.ts', 'test-results/', 'sdk/dist/', 'sdk/node_modules/', 'sdk/src/generated/', 'examples/*/node_modules/'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  // Flat config replaces a rule's options for a file rather than merging them, so each layer's entry lists
  // every restriction that applies to its files (the routers' entry repeats the zod one of server/api).
  // The console is typed end to end from the router (DESIGN decision 30): no `any` in pages, components or their helpers.
  { files: ['app/**/*.{ts,tsx}', 'components/**/*.{ts,tsx}', 'web/**/*.{ts,tsx}'], rules: { '@typescript-eslint/no-explicit-any': 'error' } },
  // Process-wide state has one home (server/lib/process-container.ts, the one `globalThis` slot Next.js's module
  // copies and the custom server's share). Tests may stub globals; the SDK and the examples stand apart.
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: ['server/lib/process-container.ts', 'tests/**', 'e2e/**', 'sdk/**', 'examples/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['globalThis', 'global'].map((name) => ({
          name,
          message: 'Process-wide state lives in the process container: processState() from server/lib/process-container.ts.',
        })),
      ],
    },
  },
  ...LAYERS.map(({ files, ignores, paths = [], patterns = [], syntax }) => ({
    files,
    ...(ignores ? { ignores } : {}),
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths, patterns }],
      ...(syntax ? { 'no-restricted-syntax': ['error', ...syntax] } : {}),
    },
  })),
);
