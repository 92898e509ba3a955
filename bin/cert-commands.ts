import fs from 'node:fs';
import type { JSONWebKeySet } from 'jose';
import { publishedCertificateKeys, rotateCertificateKey, verifyCertificate, type CertificateVerification } from '@/server/domain/intake/certificates';
import { resolveAuthSecret } from '@/server/lib/auth-secret';
import { Offline, UsageError, type Command, type Result } from './cli-command';

/**
 * Claims are printed only once the signature verifies: a forged token says whatever its maker wrote, and showing
 * it beside the word "invalid" still lends it weight (and could carry anything into a terminal or a log).
 */
function report(verdict: CertificateVerification, against: string): Result {
  if (verdict.valid) return { value: verdict, human: `${JSON.stringify(verdict.claims, null, 2)}\nvalid (key ${verdict.kid}, checked against ${against})` };
  return { value: { valid: false, reason: verdict.reason }, human: `invalid: ${verdict.reason} (checked against ${against}); its contents are not shown`, code: 1 };
}

async function jwksFrom(file: string | undefined, url: string | undefined): Promise<JSONWebKeySet> {
  let text: string;
  if (file !== undefined) text = fs.readFileSync(file, 'utf8');
  else {
    const res = await fetch(url!);
    if (!res.ok) throw new Error(`${url} answered HTTP ${res.status}`);
    text = await res.text();
  }
  let parsed: JSONWebKeySet | undefined;
  try {
    parsed = JSON.parse(text) as JSONWebKeySet;
  } catch {
    parsed = undefined;
  }
  if (!parsed || !Array.isArray(parsed.keys)) throw new UsageError(`${file ?? url} is not a JWKS (JSON with a "keys" array)`);
  return parsed;
}

export const CERT_COMMANDS: Record<string, Command> = {
  'certs:rotate': {
    summary: 'Add a new certificate signing key; earlier keys stop signing and stay published in the JWKS',
    usage: '',
    options: {},
    prepare: () => async (db, config) => {
      const secret = new TextEncoder().encode(resolveAuthSecret(config));
      const rotated = await rotateCertificateKey(db, secret);
      const retired = rotated.retired.length ? ` (retired for signing: ${rotated.retired.join(', ')})` : '';
      return { value: rotated, human: `New certificate signing key ${rotated.kid}${retired}. Earlier keys stay in /v1/certificates/jwks.json.` };
    },
  },
  'certs:verify': {
    summary: 'Verify an eligibility certificate offline; prints its claims when valid, only the reason when not (exit 1)',
    usage: '<jws> [--jwks <file> | --jwks-url <url>]   (default: the keys in the database)',
    options: { jwks: { type: 'string' }, 'jwks-url': { type: 'string' } },
    positionals: 1,
    prepare(o, [jws]) {
      if (!jws) throw new UsageError('Give the certificate (a compact JWS) as the argument');
      if (o.jwks !== undefined && o['jwks-url'] !== undefined) throw new UsageError('Give --jwks or --jwks-url, not both');
      if (o['jwks-url'] !== undefined && !URL.canParse(o['jwks-url'])) throw new UsageError(`--jwks-url: not a URL: ${o['jwks-url']}`);
      if (o.jwks !== undefined || o['jwks-url'] !== undefined) {
        // A published JWKS (a file, or a running service's URL) needs no database at all.
        return new Offline(async () => report(await verifyCertificate(jws, await jwksFrom(o.jwks, o['jwks-url'])), o.jwks ?? o['jwks-url']!));
      }
      return async (db) => report(await verifyCertificate(jws, await publishedCertificateKeys(db)), 'the keys in the database');
    },
  },
};
