import type { IncomingMessage } from 'node:http';
import { AppError, errors } from '@/server/lib/errors';

export interface ParsedBody {
  raw: string;
  json: unknown;
}

/**
 * Reads a JSON body within `limit` bytes; an empty body is `{}` so body-less POSTs need no headers.
 * Where the route names a `csvField`, a `text/csv` body arrives as `{[csvField]: text}`; a `raw` route
 * gets any body unparsed (as `raw`, with `{}` for input).
 */
export async function readJsonBody(req: IncomingMessage, limit: number, opts: { csvField?: string; raw?: boolean } = {}): Promise<ParsedBody> {
  const { csvField } = opts;
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk as Buffer);
  }
  const raw = Buffer.concat(chunks).toString('utf8');
  if (opts.raw) return { raw, json: {} };
  if (raw.trim() === '') return { raw: '', json: {} };

  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  if (csvField && /^text\/csv\b/.test(type)) return { raw, json: { [csvField]: raw } };
  if (!/^application\/([\w.+-]+\+)?json\b/.test(type)) {
    const accepted = csvField ? 'as JSON (Content-Type: application/json) or CSV (Content-Type: text/csv)' : 'as JSON with Content-Type: application/json';
    throw new AppError('validation_error', 'unsupported_media_type', 415, `Send the request body ${accepted}.`);
  }
  try {
    return { raw, json: JSON.parse(raw) };
  } catch {
    throw errors.validation('The request body is not valid JSON.', undefined, 'invalid_json');
  }
}

function tooLarge(limit: number) {
  return new AppError('validation_error', 'body_too_large', 413, `The request body exceeds the limit of ${limit} bytes.`);
}
