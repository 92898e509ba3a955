import { eq, sql } from 'drizzle-orm';
import { users } from '@/db/schema';
import { prepared } from '@/server/db/prepared';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { now } from '@/server/lib/clock';
import { normalizeEmail } from '@/server/lib/email';
import { errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { recordLicenseChanges, requestLicenses, type LicenseActor } from './licenses';
import { isValidNpi } from './npi';
import { hashPassword } from './passwords';
import type { Role } from './roles';

export type UserRow = typeof users.$inferSelect;

export function toUserDto(u: UserRow) {
  return {
    id: u.id,
    email: u.email,
    name: u.name,
    role: u.role,
    status: u.deactivatedAt ? ('deactivated' as const) : u.passwordHash ? ('active' as const) : ('invited' as const),
    mfaEnabled: Boolean(u.mfaEnabledAt),
    provider:
      u.role === 'provider'
        ? { npi: u.npi, npiVerifiedAt: u.npiVerifiedAt?.toISOString() ?? null, licensedStates: u.licensedStates, pendingLicensedStates: u.pendingLicensedStates }
        : null,
    createdAt: u.createdAt.toISOString(),
  };
}

// One spelling of an address for users and patients alike (server/lib/email.ts); login and magic links import it from here.
export { normalizeEmail };

export interface NewUser {
  email: string;
  name?: string | null;
  role: Role;
  password?: string | null;
  npi?: string | null;
  licensedStates?: string[];
  npiVerified?: boolean;
  /** Ops (or the seed) entering the states attests them; a clinic's states wait for ops (licenses.ts). */
  licensesAttested?: boolean;
}

function checkNpi(npi: string | null | undefined) {
  if (npi != null && !isValidNpi(npi)) {
    throw errors.validation('The NPI must be 10 digits with a valid check digit.', 'npi', 'invalid_npi');
  }
}

/**
 * Creates a user in a tenant (or platform staff when tenantId is null); e-mails are unique platform-wide.
 * A provider's states are recorded in their licence history, in the caller's transaction.
 */
export async function createUser(q: Queryable, tenantId: string | null, input: NewUser, by: LicenseActor): Promise<UserRow> {
  checkNpi(input.npi);
  const email = normalizeEmail(input.email);
  // Ignoring case: a row written before addresses were normalised, and left as it was because another user's folds to
  // the same address (migration 0030), still takes its address (docs/decisions/http.md, "One spelling of a person's e-mail").
  const [taken] = await q.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email}`).limit(1);
  if (taken) throw errors.conflict('A user with this e-mail already exists.', 'email_taken');
  const isProvider = input.role === 'provider';
  const states = isProvider ? [...new Set(input.licensedStates ?? [])] : [];
  const [row] = await q
    .insert(users)
    .values({
      id: newId('user'),
      tenantId,
      email,
      name: input.name ?? null,
      role: input.role,
      passwordHash: input.password ? await hashPassword(input.password) : null,
      npi: isProvider ? (input.npi ?? null) : null,
      npiVerifiedAt: isProvider && input.npi && input.npiVerified ? now() : null,
      licensedStates: input.licensesAttested ? states : [],
      pendingLicensedStates: input.licensesAttested ? [] : states,
    })
    .returning();
  if (tenantId) await recordLicenseChanges(q, tenantId, row.id, by, states.map((state) => ({ state, change: input.licensesAttested ? 'attested' : 'requested' })));
  return row;
}

export async function findUserByEmail(q: Queryable, email: string): Promise<UserRow | undefined> {
  const [row] = await q.select().from(users).where(eq(users.email, normalizeEmail(email))).limit(1);
  return row;
}

// Every session-authenticated request reads its user: rendered once (users are found by id before any tenant is known).
const userById = prepared((q) => q.select().from(users).where(eq(users.id, sql.placeholder('id'))).limit(1));

export async function findUserById(q: Queryable, id: string): Promise<UserRow | undefined> {
  const [row] = await userById.execute(q, { id });
  return row;
}

export const tenantUsers = (q: Queryable, tenantId: string) => scoped(q, { tenantId, livemode: false } satisfies Scope);

export async function listUsers(q: Queryable, tenantId: string) {
  return (await tenantUsers(q, tenantId).list(users, { order: 'oldest' })).map(toUserDto);
}

export interface UserPatch {
  name?: string | null;
  role?: Role;
  npi?: string | null;
  licensedStates?: string[];
}

/** A clinic's change to a person; `by` is recorded against any change of licensed states. */
export async function updateUser(q: Queryable, tenantId: string, id: string, patch: UserPatch, by: LicenseActor): Promise<UserRow> {
  checkNpi(patch.npi);
  return q.transaction(async (tx) => {
    const scope = tenantUsers(tx, tenantId);
    const [current] = await tx.select().from(users).where(scope.where(users, eq(users.id, id))).for('update');
    if (!current) throw errors.notFound('user', id);
    const set: Partial<typeof users.$inferInsert> = {};
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.role !== undefined) set.role = patch.role;
    const licenses = patch.licensedStates !== undefined ? requestLicenses(current, patch.licensedStates) : null;
    if (licenses && licenses.changes.length) Object.assign(set, { licensedStates: licenses.licensedStates, pendingLicensedStates: licenses.pendingLicensedStates });
    // A changed NPI has not been attested: verification is ops' word about one specific number.
    if (patch.npi !== undefined && patch.npi !== current.npi) Object.assign(set, { npi: patch.npi, npiVerifiedAt: null });
    if (Object.keys(set).length === 0) return current;
    await recordLicenseChanges(tx, tenantId, id, by, licenses?.changes ?? []);
    return (await scope.update(users, id, set))!;
  });
}

export async function deactivateUser(q: Queryable, tenantId: string, id: string): Promise<UserRow> {
  const scope = tenantUsers(q, tenantId);
  const current = await scope.require(users, id, 'user');
  if (current.deactivatedAt) return current;
  return (await scope.update(users, id, { deactivatedAt: now() }))!;
}

/** Ops attests that the provider's NPI was checked against the registry. */
export async function attestNpi(q: Queryable, tenantId: string, id: string): Promise<UserRow> {
  const scope = tenantUsers(q, tenantId);
  const current = await scope.require(users, id, 'user');
  if (current.role !== 'provider' || !current.npi) {
    throw errors.unprocessable('Only a provider with an NPI on file can be verified.', 'npi', 'npi_missing');
  }
  return (await scope.update(users, id, { npiVerifiedAt: sql`coalesce(${users.npiVerifiedAt}, now())` as never }))!;
}
