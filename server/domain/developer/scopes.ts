/** The scope catalog (DESIGN decision 2). `ops.*` is platform-only. */
export const TENANT_SCOPES = [
  'orders.read',
  'orders.write',
  'webhooks.manage',
  'events.read',
  'keys.manage',
  'usage.read',
  'FLOWS_ANALYTICS_VIEW',
  'flows.manage',
  'intake.review',
  'patients.read',
  'patients.write',
  'catalog.manage',
  'pharmacies.manage',
  'billing.manage',
] as const;

/** Scopes only a person can exercise: clinical review needs a provider's own session (DESIGN decision 10). */
export const CLINICAL_SCOPES: readonly string[] = ['intake.review'];

/** What a secret key holds: every tenant scope a machine credential can exercise. */
export const SECRET_KEY_SCOPES = TENANT_SCOPES.filter((s) => !CLINICAL_SCOPES.includes(s));

export const OPS_SCOPE = 'ops.*';
export const ALL_SCOPES = [...TENANT_SCOPES, OPS_SCOPE] as const;
export type Scope = (typeof ALL_SCOPES)[number];

export function isKnownScope(s: string): s is Scope {
  return (ALL_SCOPES as readonly string[]).includes(s);
}

export function hasScope(granted: readonly string[], required: string): boolean {
  return granted.includes(required) || (required.startsWith('ops.') && granted.includes(OPS_SCOPE));
}
