import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * One request written by hand on its own connection, so the test can send what fetch (undici) refuses to:
 * TRACE, CONNECT, a lowercase or unknown method, an asterisk or authority-form target.
 */
export function rawRequest(baseUrl: string, method: string, target: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  const head = [`${method} ${target} HTTP/1.1`, `Host: ${hostname}:${port}`, 'Connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  // A body-less request says so, or a server would wait for one on the methods that may carry it.
  if (!('content-length' in Object.fromEntries(Object.keys(headers).map((k) => [k.toLowerCase(), 1])))) head.push('Content-Length: 0');
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split === -1) return reject(new Error(`${method} ${target}: no response (${JSON.stringify(text.slice(0, 200))})`));
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const parsed: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim().toLowerCase();
        // A repeated header (Set-Cookie) keeps every value, one a line.
        parsed[name] = parsed[name] === undefined ? line.slice(colon + 1).trim() : `${parsed[name]}\n${line.slice(colon + 1).trim()}`;
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers: parsed, body: unchunk(text.slice(split + 4), parsed) });
    });
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
  });
}

function unchunk(body: string, headers: Record<string, string>): string {
  if (headers['transfer-encoding'] !== 'chunked') return body;
  let out = '';
  let rest = body;
  for (;;) {
    const line = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, line), 16);
    if (!size) return out;
    out += rest.slice(line + 2, line + 2 + size);
    rest = rest.slice(line + 2 + size + 2);
  }
}
