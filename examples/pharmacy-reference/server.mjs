// The reference pharmacy's process: `FR_PHARMACY_SECRET=whsec_… node server.mjs` (see README.md).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { createPharmacy } from './pharmacy.mjs';

/** A small price list, used when CATALOG_FILE names none. Its SKUs must be the clinic's product SKUs. */
const DEMO_CATALOG = [
  { sku: 'SEMA-0.25', itemCode: 'REF-1001', priceCents: 14900, stock: 120, etaDays: 2 },
  { sku: 'FIN-1MG', itemCode: 'REF-2001', priceCents: 1900, stock: 500, etaDays: 3 },
  { sku: 'MIN-5', itemCode: 'REF-2002', priceCents: 2400, stock: 0, etaDays: 3 },
];

const secret = process.env.FR_PHARMACY_SECRET ?? '';
if (!secret.startsWith('whsec_')) {
  console.error('Set FR_PHARMACY_SECRET to the connection secret (whsec_…) the clinic was shown when it connected this pharmacy.');
  process.exit(2);
}
const catalog = process.env.CATALOG_FILE ? JSON.parse(readFileSync(process.env.CATALOG_FILE, 'utf8')) : DEMO_CATALOG;
const port = Number(process.env.PORT ?? 4010);
const host = process.env.HOST ?? '127.0.0.1';

const handle = createPharmacy({ secret, catalog, log: (line) => console.log(line) });
const server = http.createServer((req, res) => {
  handle(req, res).catch((err) => {
    console.error(err);
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"internal"}');
  });
});
server.listen(port, host, () => {
  const { port: bound } = server.address();
  // The first line names the address (tests and scripts read it).
  console.log(`reference pharmacy listening on http://${host}:${bound}`);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => server.close(() => process.exit(0)));
