/** Shapes of the /v1/auth answers the console reads (see server/api/routers/auth/*.types.ts). */
export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
}

export type LoginAnswer = SessionTokens | { mfaRequired: true; mfaToken: string };

export type Mode = 'sandbox' | 'live';

export interface ConsoleMe {
  kind: 'user';
  mode: Mode;
  scopes: string[];
  tenant: { id: string; name: string; plan: string } | null;
  user: {
    id: string;
    email: string;
    name: string | null;
    role: string;
    status: string;
    mfaEnabled: boolean;
    provider: { npi: string | null; npiVerifiedAt: string | null; licensedStates: string[]; pendingLicensedStates: string[] } | null;
  };
}
