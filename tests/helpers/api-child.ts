import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '@/server/http/app';
import { createServices } from '@/server/http/services';
import { loadConfig } from '@/server/lib/config';

/**
 * The `/v1` handler alone in a process of its own, on the PostgreSQL of DATABASE_URL, for tests that kill a
 * web process mid-request. It writes its port to stdout once it listens.
 */
async function main() {
  const services = await createServices(loadConfig());
  const server = http.createServer(createApp(services));
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${(server.address() as AddressInfo).port}\n`));
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
