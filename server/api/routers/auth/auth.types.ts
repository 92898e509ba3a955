import * as z from '@/server/lib/zod';
import { zDateTime } from '@/server/api/schemas/common';
import { ROLES } from '@/server/domain/auth/roles';
import { zUsState } from '@/server/lib/us-state-schema';

export const zEmail = z.string().trim().toLowerCase().pipe(z.email()).meta({ description: 'E-mail address' });
export const zPassword = z.exactString().min(12, 'at least 12 characters').max(200).meta({ description: '12 to 200 characters' });
export const zNpi = z.string().meta({ description: 'National Provider Identifier: 10 digits with a valid check digit' });
export const zStates = z.array(zUsState).max(60).meta({ description: 'Two-letter US state codes' });
export const zTotp = z.string().regex(/^\d{6}$/, 'must be a 6-digit code').meta({ description: '6-digit TOTP code' });

export const ZSessionTokens = z
  .object({
    accessToken: z.string().meta({ description: 'Session JWT; send as Authorization: Bearer. Lives 15 minutes.' }),
    refreshToken: z.string().meta({ description: 'Single-use; rotate with POST /auth/refresh' }),
    tokenType: z.literal('Bearer'),
    expiresIn: z.number().meta({ description: 'Seconds until the access token expires' }),
  })
  .meta({ id: 'SessionTokens' });

export const ZMfaChallenge = z
  .object({ mfaRequired: z.literal(true), mfaToken: z.string().meta({ description: 'Send with the code to POST /auth/mfa/verify' }) })
  .meta({ id: 'MfaChallenge' });

export const ZLoginResult = z.union([ZSessionTokens, ZMfaChallenge]);

export const ZUser = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: z.enum(ROLES),
    status: z.enum(['invited', 'active', 'deactivated']),
    mfaEnabled: z.boolean(),
    provider: z
      .object({
        npi: z.string().nullable(),
        npiVerifiedAt: zDateTime.nullable(),
        licensedStates: z.array(z.string()).meta({ description: 'States ops attested: the only ones in which the provider may approve' }),
        pendingLicensedStates: z.array(z.string()).meta({ description: 'States a clinic admin added, waiting for ops to attest them' }),
      })
      .nullable()
      .meta({ description: 'Provider profile; null for other roles' }),
    createdAt: zDateTime,
  })
  .meta({ id: 'User' });
