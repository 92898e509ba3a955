import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { loadConfig } from '../server/lib/config';

// `npm start`: one server process, or with WEB_CONCURRENCY=N a node:cluster primary and N server processes
// sharing PORT (server/cluster/cluster.ts). A forked process runs this file again and goes straight to the server.
if (cluster.isWorker) {
  await import('../server/http/main');
} else {
  let config: ReturnType<typeof loadConfig>;
  try {
    // Checked before any build or fork: WEB_CONCURRENCY above 1 on the embedded database stops here, said plainly.
    config = loadConfig();
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
  // The console is built when no production build exists yet (first start only).
  if (process.env.FR_NO_NEXT !== '1' && !existsSync('.next/BUILD_ID')) {
    console.log('No production build found: running next build (first start only)…');
    // The heap sizes in NODE_OPTIONS (package.json `start`) are shaped for the server; the build keeps V8's own.
    const NODE_OPTIONS = (process.env.NODE_OPTIONS ?? '').replace(/--max-(old|semi)-space-size=\d+/g, '').trim();
    execSync('npx next build', { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production', NODE_OPTIONS } });
  }
  if (config.WEB_CONCURRENCY > 1) await (await import('../server/cluster/cluster')).runCluster(config);
  else await import('../server/http/main');
}
