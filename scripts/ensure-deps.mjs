// Runs before `npm start` and `npm test` so a fresh clone needs no separate install step.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

if (!existsSync('node_modules/.package-lock.json')) {
  console.log('Installing dependencies from package-lock.json…');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
}
