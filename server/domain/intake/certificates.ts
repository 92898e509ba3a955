import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, SignJWT, type JSONWebKeySet } from 'jose';
import type { Queryable } from '@/server/db/types';
import { answersHash } from './certificate-secrets';
import { signingKey } from './certificate-keys';

export { answersHash } from './certificate-secrets';
export {
  ensureCertificateKey,
  publishedCertificateKeys,
  rotateCertificateKey,
  type CertificateJwks,
  type CertificatePublicJwk,
} from './certificate-keys';

/** The JWS `typ` of an eligibility certificate: tells it apart from every other JWT a verifier may hold. */
export const CERTIFICATE_TYP = 'fr-cert+jwt';

export interface CertificateSubject {
  submissionId: string;
  tenantId: string;
  livemode: boolean;
  questionnaire: { key: string; version: number; contentHash: string };
  answers: Record<string, unknown>;
  /** The flow's clinical-plane hash when the run came through a flow. */
  clinicalPlaneHash?: string;
}

/**
 * What signing needs from the process: the service's AUTH_SECRET (wraps the signing keys and derives each
 * tenant's answers key) and its public URL (the `iss`). `services.auth` (AuthDeps) has exactly these members.
 */
export interface CertificateDeps {
  secret: Uint8Array;
  publicUrl: string;
}

/** Who signs a submission's certificate: the service's deps and, where given, its cache key (see `issueCertificate`). */
export interface CertificateSigner {
  deps: CertificateDeps;
  cacheKey?: object;
}

/** The claims of a certificate, and nothing else (DESIGN decision 20): ids, hashes and the verdict, no PHI. */
export interface CertificateClaims {
  iss: string;
  sub: string;
  tid: string;
  livemode: boolean;
  iat: number;
  qk: string;
  qv: number;
  qh: string;
  cph?: string;
  ah: string;
  verdict: 'eligible';
}

/**
 * Signs the eligible verdict (DESIGN decision 20): a compact EdDSA JWS by the newest signing key. Call it in
 * the submission's transaction, with the service's `deps` (`ctx.services.auth`). `cacheKey`: one object per
 * service and so per database (`ctx.services.config`), under which the signing key in use is kept instead of
 * read per certificate.
 */
export async function issueCertificate(q: Queryable, subject: CertificateSubject, now: Date, deps: CertificateDeps, cacheKey?: object): Promise<string> {
  const { kid, key } = await signingKey(q, deps.secret, cacheKey);
  const { questionnaire: qn } = subject;
  const claims: CertificateClaims = {
    iss: deps.publicUrl,
    sub: subject.submissionId,
    tid: subject.tenantId,
    livemode: subject.livemode,
    iat: Math.floor(now.getTime() / 1000),
    qk: qn.key,
    qv: qn.version,
    qh: qn.contentHash,
    ...(subject.clinicalPlaneHash !== undefined ? { cph: subject.clinicalPlaneHash } : {}),
    ah: answersHash(deps.secret, subject.tenantId, subject.answers),
    verdict: 'eligible',
  };
  return new SignJWT({ ...claims }).setProtectedHeader({ alg: 'EdDSA', kid, typ: CERTIFICATE_TYP }).sign(key);
}

export type CertificateVerification =
  | { valid: true; kid: string; claims: CertificateClaims }
  | { valid: false; reason: string; kid?: string; claims?: Record<string, unknown> };

/**
 * Verifies a certificate against a JWKS (the published one, or the keys in the database): EdDSA only, the
 * certificate `typ`, a known kid, an intact signature and an eligible verdict. An invalid one comes back with
 * its reason and, when it decodes at all, its (unverified) claims, never as a throw.
 */
export async function verifyCertificate(jws: string, jwks: JSONWebKeySet, opts: { issuer?: string } = {}): Promise<CertificateVerification> {
  try {
    const { payload, protectedHeader } = await jwtVerify(jws.trim(), createLocalJWKSet(jwks), {
      algorithms: ['EdDSA'],
      typ: CERTIFICATE_TYP,
      issuer: opts.issuer,
    });
    if (payload.verdict !== 'eligible') return { valid: false, reason: 'the verdict is not eligible', kid: protectedHeader.kid, claims: payload };
    return { valid: true, kid: protectedHeader.kid!, claims: payload as unknown as CertificateClaims };
  } catch (err) {
    return { valid: false, reason: err instanceof Error ? err.message : String(err), ...undecoded(jws.trim()) };
  }
}

function undecoded(jws: string): { kid?: string; claims?: Record<string, unknown> } {
  try {
    return { kid: decodeProtectedHeader(jws).kid, claims: decodeJwt(jws) };
  } catch {
    return {};
  }
}
