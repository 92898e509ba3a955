import http from 'node:http';

/**
 * The bench's baseline: the cheapest possible JSON endpoint on bare `node:http`, in its own process like the
 * real server. Whatever the framework, auth and database cost is measured against this.
 */
const body = JSON.stringify({ ok: true, service: 'baseline' });
const server = http.createServer((_req, res) => {
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/json');
  res.end(body);
});
server.keepAliveTimeout = 65_000; // same as server/http/main.ts
server.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
