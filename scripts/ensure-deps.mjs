// Runs before `npm start` and `npm test` so a fresh clone needs no separate install step.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

if (!existsSync('node_modules/.package-lock.json')) {
  // npm install, not npm ci: see .ci/run for why npm ci rejects this machine's lock file.
  console.log('Installing dependencies from package-lock.json…');
  execSync('npm install --no-audit --no-fund', { stdio: 'inherit' });
}
