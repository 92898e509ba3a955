import type { IncomingMessage } from 'node:http';
import { AppError } from '@/server/lib/errors';

export const FHIR_CONTENT_TYPE = 'application/fhir+json; charset=utf-8';

// FHIR's JSON mime type, plain JSON, and the short `json` of `_format`; `application/json+fhir` is DSTU2's spelling.
const JSON_TYPES = new Set(['json', 'application/json', 'application/fhir+json', 'application/json+fhir']);
const ANY = new Set(['*/*', 'application/*']);

const mediaType = (value: string) => value.split(';')[0]!.trim().toLowerCase();

/**
 * The format a FHIR request asks for must be JSON: `_format` (which wins over Accept) or the Accept header.
 * XML, Turtle or HTML are not served: 406 naming what is. No Accept, or one that takes anything, is JSON.
 */
export function requireJsonFormat(req: IncomingMessage, search: URLSearchParams): void {
  const formats = search.getAll('_format');
  if (formats.length) {
    if (formats.length > 1 || !JSON_TYPES.has(mediaType(formats[0]!))) throw notAcceptable('_format');
    return;
  }
  const accept = req.headers.accept;
  if (!accept) return;
  const ranges = accept.split(',').map(mediaType).filter(Boolean);
  if (ranges.length && !ranges.some((r) => JSON_TYPES.has(r) || ANY.has(r))) throw notAcceptable('Accept');
}

function notAcceptable(param: string) {
  return new AppError('validation_error', 'format_not_supported', 406, 'This FHIR server answers JSON only: application/fhir+json (or _format=json).', param);
}
