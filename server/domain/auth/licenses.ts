import { desc, eq } from 'drizzle-orm';
import { licenseChanges, users, type LicenseChangeKind } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import type { CredentialActor, SessionUser } from './principal';

/** Who changed a provider's licensed states: a clinic user or key, ops, or the system (the demo seed). */
export type LicenseActor = CredentialActor | { kind: 'system'; id: null };

// Users and their licence history have no mode: a tenant's scope with either livemode filters by tenant only.
const inTenant = (q: Queryable, tenantId: string) => scoped(q, { tenantId, livemode: false } satisfies Scope);

/**
 * The one licence rule, for approving, for every later dispatch and for the provider check alike: only
 * states ops attested count; a state a clinic asked for and ops has not yet checked authorizes nothing.
 */
export const isLicensedIn = (provider: { licensedStates: readonly string[] }, state: string) => provider.licensedStates.includes(state);

/** POST /auth/provider-check: the provider's authority in a patient's state, with the reason when none. */
export function providerAuthority(user: SessionUser, state: string) {
  const authorized = isLicensedIn(user, state);
  return { authorized, state, npi: user.npi!, licensedStates: [...user.licensedStates], reason: authorized ? null : `You are not licensed in ${state}.` };
}

export const SYSTEM_LICENSE_ACTOR: LicenseActor = { kind: 'system', id: null };


interface Licenses {
  licensedStates: string[];
  pendingLicensedStates: string[];
}

/**
 * A clinic's new list of a provider's states, applied as a clinic may: a state taken away stops
 * authorizing at once, a state added only waits for ops to attest it (as an NPI does), since a licence
 * the clinic merely claims must not let anyone approve orders in that state.
 */
export function requestLicenses(current: Licenses, requested: readonly string[]) {
  const wanted = new Set(requested);
  const licensedStates = current.licensedStates.filter((s) => wanted.has(s));
  const pendingLicensedStates = [...wanted].filter((s) => !current.licensedStates.includes(s));
  const changes: { state: string; change: LicenseChangeKind }[] = [
    ...current.licensedStates.filter((s) => !wanted.has(s)).map((state) => ({ state, change: 'removed' as const })),
    ...current.pendingLicensedStates.filter((s) => !wanted.has(s)).map((state) => ({ state, change: 'withdrawn' as const })),
    ...pendingLicensedStates.filter((s) => !current.pendingLicensedStates.includes(s)).map((state) => ({ state, change: 'requested' as const })),
  ];
  return { licensedStates, pendingLicensedStates, changes };
}

/** Appends to the provider's licence history, in the caller's transaction. */
export async function recordLicenseChanges(q: Queryable, tenantId: string, userId: string, by: LicenseActor, changes: { state: string; change: LicenseChangeKind }[]) {
  if (changes.length === 0) return;
  const at = now();
  await inTenant(q, tenantId).insertMany(licenseChanges, changes.map((c) => ({ id: newId('licenseChange'), userId, ...c, actorKind: by.kind, actorId: by.id, at })));
}

/** Ops attests states a clinic asked for; a state nobody asked for is not attested by accident. */
export async function attestLicenses(q: Queryable, tenantId: string, userId: string, states: readonly string[], by: LicenseActor) {
  return q.transaction(async (tx) => {
    const [current] = await tx.select().from(users).where(inTenant(tx, tenantId).where(users, eq(users.id, userId))).for('update');
    if (!current) throw errors.notFound('user', userId);
    if (current.role !== 'provider') throw errors.unprocessable('Only a provider has licensed states.', 'id', 'not_a_provider');
    const unasked = states.filter((s) => !current.pendingLicensedStates.includes(s));
    if (unasked.length) throw errors.unprocessable(`No attestation was requested for ${unasked.join(', ')}; a clinic admin adds the state first.`, 'states', 'license_not_requested');
    const attest = [...new Set(states)];
    const [row] = await tx
      .update(users)
      .set({ licensedStates: [...current.licensedStates, ...attest.filter((s) => !current.licensedStates.includes(s))], pendingLicensedStates: current.pendingLicensedStates.filter((s) => !attest.includes(s)) })
      .where(inTenant(tx, tenantId).where(users, eq(users.id, userId)))
      .returning();
    await recordLicenseChanges(tx, tenantId, userId, by, attest.map((state) => ({ state, change: 'attested' as const })));
    return row;
  });
}

/** The provider's licence history, newest first. */
export async function licenseHistory(q: Queryable, tenantId: string, userId: string) {
  const [user] = await q.select({ id: users.id }).from(users).where(inTenant(q, tenantId).where(users, eq(users.id, userId))).limit(1);
  if (!user) throw errors.notFound('user', userId);
  const rows = await q.select().from(licenseChanges).where(inTenant(q, tenantId).where(licenseChanges, eq(licenseChanges.userId, userId))).orderBy(desc(licenseChanges.id));
  return rows.map((r) => ({ id: r.id, state: r.state, change: r.change, actorKind: r.actorKind, actorId: r.actorId, at: r.at.toISOString() }));
}
