import fs from 'node:fs';
import http from 'node:http';

/**
 * The floor for a page: bare `node:http` answering every request with the bytes in PAGE_FILE (a page the real
 * server rendered, fetched by the scenario), in its own process like the real server. The hosted page's
 * render cache is measured against this in the same run.
 */
const body = fs.readFileSync(process.env.PAGE_FILE!);
const contentType = process.env.PAGE_CONTENT_TYPE ?? 'text/html; charset=utf-8';
const server = http.createServer((_req, res) => {
  res.statusCode = 200;
  res.setHeader('Content-Type', contentType);
  res.end(body);
});
server.keepAliveTimeout = 65_000; // same as server/http/main.ts
server.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
