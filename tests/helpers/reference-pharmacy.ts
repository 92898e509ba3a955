import { spawn } from 'node:child_process';
import { once } from 'node:events';

/**
 * examples/pharmacy-reference started as its README says (`node server.mjs`, a process of its own), on a free port,
 * with the connection's secret. `url` uses the host name `localhost`, as a clinic would enter it for a local pharmacy.
 */
export async function startReferencePharmacy(secret: string): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawn(process.execPath, ['examples/pharmacy-reference/server.mjs'], { env: { ...process.env, PORT: '0', FR_PHARMACY_SECRET: secret }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the reference pharmacy exited (${code}) before listening`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1];
      if (port) resolve(`http://localhost:${port}`);
    });
  });
  return {
    url,
    async close() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}
