import * as z from '@/server/lib/zod';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { ProcedureMeta } from '@/server/api/trpc';

export const getJwksMeta: OpenApiMeta<ProcedureMeta> = {
  openapi: {
    method: 'GET',
    path: '/certificates/jwks.json',
    tags: ['certificates'],
    summary: 'The public keys that verify eligibility certificates (JWKS; no credential)',
    description:
      'Every Ed25519 key that has signed certificates, newest first; a rotated key stays listed so the certificates it signed keep verifying. ' +
      'A certificate is a compact JWS (`alg` EdDSA, `typ` fr-cert+jwt, `kid` naming its key) whose claims are `iss`, `sub` (submission id), `tid`, `livemode`, `iat`, ' +
      '`qk`/`qv`/`qh` (questionnaire key, version, content hash), `cph` (a flow’s clinical-plane hash, when present), `ah` (keyed hash of the answers) and `verdict`. Cacheable for 5 minutes.',
    protect: false,
  },
};
export const ZGetJwksRequest = z.object({});
const ZCertificateJwk = z
  .object({
    kty: z.literal('OKP'),
    crv: z.literal('Ed25519'),
    x: z.string().meta({ description: 'The public key, base64url' }),
    kid: z.string().meta({ description: 'RFC 7638 thumbprint of the key; the `kid` in a certificate’s header' }),
    alg: z.literal('EdDSA'),
    use: z.literal('sig'),
  })
  .meta({ id: 'CertificateJwk' });
export const ZGetJwksResponse = z.object({ keys: z.array(ZCertificateJwk) }).meta({ id: 'CertificateJwks' });
