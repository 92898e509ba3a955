import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

// `npm start` builds the console when no production build exists yet, then starts the one server.
if (!existsSync('.next/BUILD_ID')) {
  console.log('No production build found: running next build (first start only)…');
  execSync('npx next build', { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
}
await import('../server/http/main');
