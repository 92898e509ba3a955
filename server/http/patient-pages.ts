import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '@/server/lib/errors';

/**
 * The port through which the web process's entry (main.ts) hands the app the patient pages it renders without
 * Next.js (app/_patient-pages/: the hosted flow page, the widget's frame and the patient portal) and their scripts.
 */
export interface PatientPages {
  /**
   * Writes the flow's page of `embedKey` (as the app found it in the address) for this request with the
   * response's CSP nonce; false when no flow is served there. `clientIp` is the patient's address, which the
   * public procedures' per-address limit counts.
   */
  render(req: IncomingMessage, res: ServerResponse, page: { embedKey: string; nonce: string }, clientIp: string): Promise<boolean>;
  /** Writes a portal page (`/p/{embedKey}/…`, GET), its 404 included; false for an address that is none of its pages. */
  renderPortal(req: IncomingMessage, res: ServerResponse, nonce: string, clientIp: string): Promise<boolean>;
  /** The scripts by address, each with the compressed forms made at build time. */
  files: ReadonlyMap<string, { body: Buffer; br: Buffer; gzip: Buffer }>;
}

/** Where the patient pages' scripts are served (their names carry their content's hash, so they never change). */
export const PATIENT_ASSET_PREFIX = '/_fr/';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** GET/HEAD of a patient page's script: compressed as the browser accepts, cached for good (a new build is a new name). */
export function servePatientAsset(req: IncomingMessage, res: ServerResponse, pages: PatientPages, pathname: string): void {
  const file = pages.files.get(pathname);
  if (!file) throw new AppError('not_found', 'route_not_found', 404, 'Unrecognized request URL.');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    throw new AppError('validation_error', 'method_not_allowed', 405, `${req.method} is not allowed on ${pathname}.`, undefined, { Allow: 'GET, HEAD' });
  }
  const accepted = String(req.headers['accept-encoding'] ?? '');
  const [body, encoding] = /\bbr\b/.test(accepted) ? [file.br, 'br'] : /\bgzip\b/.test(accepted) ? [file.gzip, 'gzip'] : [file.body, null];
  res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
  res.setHeader('Cache-Control', IMMUTABLE);
  res.setHeader('Vary', 'Accept-Encoding');
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', body.length);
  res.statusCode = 200;
  res.end(req.method === 'HEAD' ? undefined : body);
}
