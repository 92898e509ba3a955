import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import type { ServingKeyCache } from '@/server/domain/embed/serving-key-cache';

/** A view of a flow's page that the render cache may answer (framed-pages.ts decides, and names its bytes). */
export interface CacheablePage {
  /** Everything the bytes depend on but the nonce: key, published version, mode, framing, path and the parameters read. */
  name: string;
  tenantId: string;
  /** The key cache's generation when the key was read: a render that outlives a change is not kept. */
  generation: number;
  /** The path and query Next.js renders it from (parameters the page does not read left out). */
  path: string;
}

interface RenderedPage {
  /** The HTML split at each occurrence of the nonce it was rendered with. */
  parts: Buffer[];
  /** What Next.js set on the response (Content-Type, Vary); ours (CSP, Cache-Control, …) are set per request. */
  headers: [string, string | string[]][];
  tenantId: string;
}

const MAX_BYTES = 64 * 1024 * 1024;
// Set per response, by Node or by the app: never replayed from the cache.
const PER_RESPONSE = new Set(['content-length', 'transfer-encoding', 'content-encoding', 'date', 'connection', 'keep-alive', 'set-cookie']);
const gzipAsync = promisify(gzip);

/**
 * The hosted page and the widget's frame from memory (DESIGN decision 37). Next.js renders a view once; its
 * bytes are kept with the nonce it carried cut out, and every later view of the same name is those bytes
 * with this response's nonce put back. Entries of a tenant are dropped when the key cache forgets it; one
 * that outlived its version would never be asked for again anyway, since the version is part of the name.
 */
export function createPageCache(keys: ServingKeyCache) {
  const pages = new LRUCache<string, RenderedPage>({ maxSize: MAX_BYTES, sizeCalculation: (p) => p.parts.reduce((n, b) => n + b.length, 0) + 1 });
  // Views being rendered into the cache, by name: a view asked for meanwhile waits for it (a campaign's first burst renders once).
  const rendering = new Map<string, Promise<void>>();
  keys.onInvalidate((tenantId) => {
    if (!tenantId) return pages.clear();
    for (const [name, page] of pages.entries()) if (page.tenantId === tenantId) pages.delete(name);
  });

  /**
   * Answers the view from memory (true), after waiting for a render of it already under way; otherwise arms the
   * copy of the render that the caller then lets Next.js make (false). Looking and arming with no await between
   * them is what makes concurrent first views render once.
   */
  async function answer(req: IncomingMessage, res: ServerResponse, page: CacheablePage, nonce: string): Promise<boolean> {
    for (;;) {
      const rendered = pages.get(page.name);
      if (rendered) {
        await send(req, res, rendered, nonce);
        return true;
      }
      const inFlight = rendering.get(page.name);
      if (!inFlight) {
        capture(req, res, page, nonce);
        return false;
      }
      await inFlight;
    }
  }

  async function send(req: IncomingMessage, res: ServerResponse, rendered: RenderedPage, nonce: string): Promise<void> {
    const nonceBytes = Buffer.from(nonce);
    const chunks: Buffer[] = [rendered.parts[0]];
    for (let i = 1; i < rendered.parts.length; i++) chunks.push(nonceBytes, rendered.parts[i]);
    let body = Buffer.concat(chunks);
    for (const [name, value] of rendered.headers) res.setHeader(name, value);
    // As Next.js answers a browser: gzip when accepted (its compression sets Vary: Accept-Encoding, replayed above).
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      body = await gzipAsync(body);
      res.setHeader('Content-Encoding', 'gzip');
    }
    res.statusCode = 200;
    res.end(body);
  }

  /**
   * Lets Next.js render the view to this response and keeps a copy of what it wrote. The request is the
   * page's canonical path, uncompressed (the copy is served to every client), and the copy is kept only for a
   * 200 that sets no cookie, carries the nonce, and finished before any change to the tenant's keys.
   */
  function capture(req: IncomingMessage, res: ServerResponse, page: CacheablePage, nonce: string): void {
    req.url = page.path;
    delete req.headers['accept-encoding'];
    const ours = new Set(Object.keys(res.getHeaders()));
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown, encoding?: unknown) => {
      if (typeof chunk === 'string') chunks.push(Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8'));
      else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
    };
    // Names as Next.js spells them, so a cached view's headers read as a rendered one's.
    const spelled = new Map<string, string>();
    const setHeader = res.setHeader.bind(res);
    res.setHeader = ((name: string, value: string | number | readonly string[]) => (spelled.set(name.toLowerCase(), name), setHeader(name, value))) as typeof res.setHeader;
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((chunk: unknown, ...rest: unknown[]) => (keep(chunk, rest[0]), write(chunk, ...rest))) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => (typeof chunk !== 'function' && keep(chunk, rest[0]), end(chunk, ...rest))) as typeof res.end;
    res.once('finish', () => {
      if (res.statusCode !== 200 || res.hasHeader('set-cookie') || keys.generation !== page.generation) return;
      const html = Buffer.concat(chunks);
      const parts = splitAt(html, Buffer.from(nonce));
      if (parts.length < 2) return;
      const headers = [...spelled.values()]
        .filter((name) => !ours.has(name.toLowerCase()) && !PER_RESPONSE.has(name.toLowerCase()))
        .flatMap((name) => {
          const value = res.getHeader(name);
          return value === undefined ? [] : [[name, Array.isArray(value) ? value : String(value)] as [string, string | string[]]];
        });
      pages.set(page.name, { parts, headers, tenantId: page.tenantId });
    });
    // After the copy is kept (listeners run in order); a response that fails is 'close' without 'finish'.
    const done = new Promise<void>((resolve) => {
      res.once('finish', resolve);
      res.once('close', resolve);
    });
    rendering.set(page.name, done);
    void done.then(() => rendering.get(page.name) === done && rendering.delete(page.name));
  }

  return { answer };
}

function splitAt(buffer: Buffer, separator: Buffer): Buffer[] {
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = buffer.indexOf(separator); at !== -1; at = buffer.indexOf(separator, from)) {
    parts.push(buffer.subarray(from, at));
    from = at + separator.length;
  }
  parts.push(buffer.subarray(from));
  return parts;
}
