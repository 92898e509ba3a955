import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeLlm {
  baseUrl: string;
  /** What the next completion answers: the assistant message's content, a status error, or a delay first. */
  next: { content?: string; status?: number; delayMs?: number };
  requests: { path: string; authorization?: string; body: any }[];
  close(): Promise<void>;
}

/** A local OpenAI-compatible server answering `POST /v1/chat/completions` the way the API does. */
export async function startFakeLlm(): Promise<FakeLlm> {
  const fake: FakeLlm = { baseUrl: '', next: { content: '{}' }, requests: [], close: async () => undefined };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', async () => {
      let body: unknown = null;
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
      fake.requests.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
      const { content = '', status = 200, delayMs = 0 } = fake.next;
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      if (res.destroyed) return;
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }));
        return;
      }
      if (status !== 200) {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'upstream trouble', type: 'server_error' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-fake',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: (body as { model?: string })?.model ?? 'fake',
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
