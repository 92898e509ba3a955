/** @type {import('next').NextConfig} */
const config = {
  // Server packages that must not be bundled: native/wasm drivers are loaded from node_modules at run time.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'pino', 'ioredis'],
  poweredByHeader: false,
  // TypeScript is checked once, by `npm run typecheck` (`next typegen` writes the route and page types the
  // build would check, then `tsc` checks them with everything else; CI runs it before the build), so the
  // build does not spend another minute checking the same program.
  typescript: { ignoreBuildErrors: true },
};

export default config;
