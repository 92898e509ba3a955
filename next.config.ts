import type { NextConfig } from 'next';

const config: NextConfig = {
  // Server packages that must not be bundled: native/wasm drivers are loaded from node_modules at run time.
  serverExternalPackages: ['@electric-sql/pglite', 'pg', 'pino', 'ioredis'],
  poweredByHeader: false,
};

export default config;
