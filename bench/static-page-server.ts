import fs from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';

/**
 * The floor for a page: bare `node:http` answering every request with the bytes in PAGE_FILE (a page the real
 * server rendered, fetched by the scenario), in its own process like the real server. The hosted page's
 * render cache is measured against this in the same run.
 */
const body = fs.readFileSync(process.env.PAGE_FILE!);
const contentType = process.env.PAGE_CONTENT_TYPE ?? 'text/html; charset=utf-8';
// PAGE_GZIP=1 (the lighthouse floor): gzip made once, sent when accepted, as the real server answers a browser.
const gzipped = process.env.PAGE_GZIP === '1' ? zlib.gzipSync(body) : null;
const server = http.createServer((req, res) => {
  res.statusCode = 200;
  res.setHeader('Content-Type', contentType);
  if (gzipped) res.setHeader('Vary', 'Accept-Encoding');
  if (gzipped && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
    res.setHeader('Content-Encoding', 'gzip');
    return res.end(gzipped);
  }
  res.end(body);
});
server.keepAliveTimeout = 65_000; // same as server/http/main.ts
server.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
