import type { IncomingMessage } from 'node:http';
import { AppError, errors } from '@/server/lib/errors';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '@/server/lib/json-depth';

export interface ParsedBody {
  raw: string;
  json: unknown;
}

/**
 * Reads a JSON body within `limit` bytes; an empty body is `{}` so body-less POSTs need no headers.
 * Anything else must be a JSON object of at most MAX_JSON_DEPTH levels, checked before authentication.
 * Where the route names a `csvField`, a `text/csv` body arrives as `{[csvField]: text}`; a `raw` route
 * gets any body unparsed (as `raw`, with `{}` for input).
 */
export async function readJsonBody(req: IncomingMessage, limit: number, opts: { csvField?: string; raw?: boolean } = {}): Promise<ParsedBody> {
  const { csvField } = opts;
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw tooLarge(limit);
  const raw = (await readBytes(req, limit)).toString('utf8');
  if (opts.raw) return { raw, json: {} };
  if (raw.trim() === '') return { raw: '', json: {} };

  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  if (csvField && /^text\/csv\b/.test(type)) return { raw, json: { [csvField]: raw } };
  if (!/^application\/([\w.+-]+\+)?json\b/.test(type)) {
    const accepted = csvField ? 'as JSON (Content-Type: application/json) or CSV (Content-Type: text/csv)' : 'as JSON with Content-Type: application/json';
    throw new AppError('validation_error', 'unsupported_media_type', 415, `Send the request body ${accepted}.`);
  }
  if (nestsDeeperThan(raw, MAX_JSON_DEPTH)) {
    throw errors.validation(`The request body nests deeper than ${MAX_JSON_DEPTH} levels.`, undefined, 'json_too_deep');
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw errors.validation('The request body is not valid JSON.', undefined, 'invalid_json');
  }
  // The OpenAPI handler spreads the body into the input, so null, 123, true or [] read as an empty object:
  // an empty PATCH, or a logout of every session. Every operation takes an object.
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw errors.validation('The request body must be a JSON object.', undefined, 'invalid_body');
  }
  return { raw, json };
}

/**
 * The body's bytes, at most `limit`. Listeners rather than `for await`: the stream's async iterator costs a
 * promise and an end-of-stream watcher per request on the public runtime's hottest path (issue 35). As the
 * iterator did, a body over the limit or a request that breaks off rejects and the request is destroyed.
 */
function readBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Settled once; the listeners stay (a request ends or closes once), later events find it settled.
    let settled = false;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      req.destroy();
      reject(err);
    };
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) fail(tooLarge(limit));
      else chunks.push(chunk);
    });
    req.once('end', () => {
      if (settled) return;
      settled = true;
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    });
    req.on('error', fail);
    // Every request closes; only one that closes before its end is a failure (and only then is an Error, with its stack, made).
    req.once('close', () => {
      if (!settled) fail(Object.assign(new Error('The request closed before its body arrived.'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    });
  });
}

function tooLarge(limit: number) {
  return new AppError('validation_error', 'body_too_large', 413, `The request body exceeds the limit of ${limit} bytes.`);
}
