import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

// `npm start` builds the console when no production build exists yet, then starts the one server.
if (!existsSync('.next/BUILD_ID')) {
  console.log('No production build found: running next build (first start only)…');
  // The heap sizes in NODE_OPTIONS (package.json `start`) are shaped for the server; the build keeps V8's own.
  const NODE_OPTIONS = (process.env.NODE_OPTIONS ?? '').replace(/--max-(old|semi)-space-size=\d+/g, '').trim();
  execSync('npx next build', { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production', NODE_OPTIONS } });
}
await import('../server/http/main');
