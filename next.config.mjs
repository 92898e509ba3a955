/** @type {import('next').NextConfig} */
const config = {
  // Server packages that must not be bundled: native/wasm drivers are loaded from node_modules at run time.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'pino', 'ioredis'],
  poweredByHeader: false,
};

export default config;
