import { and, asc, sql } from 'drizzle-orm';
import { patientAccessLog, patients, type PatientAddress } from '@/db/schema';
import { scoped, scopedStatement, type Scope } from '@/server/db/scoped';
import type { Db, Queryable } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { now } from '@/server/lib/clock';
import { normalizeEmail } from '@/server/lib/email';
import { errors } from '@/server/lib/errors';
import { newId } from '@/server/lib/ids';
import { sentFields } from '@/server/lib/sent-fields';
import { accessEntry, recordAccess } from './access-log';
import { generateSyntheticPatient } from './synthetic';
import { requireFields, type Sex } from './validation';

type PatientRow = typeof patients.$inferSelect;

export interface AddressInput {
  line1: string;
  line2?: string | null;
  city: string;
  state: string;
  postalCode: string;
  country?: 'US';
}

/** A complete patient, as stored (less ids, mode and timestamps). */
export interface PatientFields {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  sex: Sex;
  email: string | null;
  phone: string | null;
  address: PatientAddress | null;
  /** State of residence; taken from the address when one is given. */
  state?: string | null;
  allergies: string[];
  medications: string[];
}

/**
 * The state a patient lives in, for the provider's licence check: the shipping address's state, else the state
 * of residence recorded without an address (public intake and flows always record one). Null when unknown.
 */
export const patientStateOf = (row: Pick<PatientRow, 'address' | 'state'>): string | null => row.address?.state ?? row.state ?? null;

/** A create request after schema validation: required fields may still be missing when generating. */
export type PatientChanges = Partial<Omit<PatientFields, 'address'>> & { address?: AddressInput | null };
export type CreatePatientInput = PatientChanges & { synthetic?: boolean };
export type UpdatePatientInput = PatientChanges & { id: string };

/** The public Patient object; PHI, so it leaves the service only in answers to authenticated calls. */
export function toPatientDto(row: PatientRow) {
  return {
    id: row.id,
    object: 'patient' as const,
    livemode: row.livemode,
    synthetic: row.synthetic,
    firstName: row.firstName,
    lastName: row.lastName,
    dateOfBirth: row.dateOfBirth,
    sex: row.sex,
    email: row.email,
    phone: row.phone,
    address: row.address,
    state: patientStateOf(row),
    allergies: row.allergies,
    medications: row.medications,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const toAddress = (a: AddressInput | null | undefined): PatientAddress | null =>
  a ? { line1: a.line1, line2: a.line2 ?? null, city: a.city, state: a.state, postalCode: a.postalCode, country: 'US' } : null;

/** The fields of a create request; `{synthetic: true}` alone asks for a generated sandbox patient. */
function fieldsToCreate(p: TenantPrincipal, input: CreatePatientInput): PatientFields {
  const { synthetic, ...fields } = input;
  if (synthetic === true && p.livemode) {
    throw errors.validation('Synthetic patients exist only in sandbox. Use a sandbox key to create them.', 'synthetic', 'synthetic_in_live');
  }
  if (synthetic === false && !p.livemode) {
    throw errors.validation('Every sandbox patient is synthetic; omit synthetic or send true.', 'synthetic', 'sandbox_patients_synthetic');
  }
  const sent = Object.values(fields).some((v) => v !== undefined);
  if (synthetic === true && !sent) return generateSyntheticPatient();
  requireFields(fields);
  return {
    firstName: fields.firstName!,
    lastName: fields.lastName!,
    dateOfBirth: fields.dateOfBirth!,
    sex: fields.sex!,
    email: fields.email ?? null,
    phone: fields.phone ?? null,
    address: toAddress(fields.address),
    state: fields.state ?? null,
    allergies: fields.allergies ?? [],
    medications: fields.medications ?? [],
  };
}

/** Sandbox patients are synthetic by construction; live ones never are. */
export async function createPatient(db: Db, p: TenantPrincipal, input: CreatePatientInput, requestId: string | null) {
  const fields = fieldsToCreate(p, input);
  return db.transaction(async (tx) => toPatientDto(await insertPatient(tx, p, fields, requestId)));
}

/** Writes a complete patient and its `create` access-log entry in the caller's transaction (sandbox ones synthetic). */
export async function insertPatient(q: Queryable, p: TenantPrincipal, fields: PatientFields, requestId: string | null): Promise<PatientRow> {
  const at = now();
  const id = newId('patient');
  // The record and its access-log entry in one statement (docs/decisions/performance.md, "Public runtime: statements per request").
  const state = fields.address?.state ?? fields.state ?? null;
  // Every path that creates a patient (the API, public intake, flows, identity resolution, seeds) comes here: one spelling per address.
  const email = fields.email == null ? null : normalizeEmail(fields.email);
  return scoped(q, p).insert(patients, { id, synthetic: !p.livemode, ...fields, email, state, createdAt: at, updatedAt: at }, [
    { table: patientAccessLog, rows: [accessEntry(p, id, 'create', requestId, at)] },
  ]);
}

// Rendered once and named: every live flow submission runs it.
const patientByEmail = scopedStatement((own, q) =>
  q
    .select()
    .from(patients)
    .where(and(own(patients), sql`lower(${patients.email}) = ${sql.placeholder('email')}`))
    .orderBy(asc(patients.id))
    .limit(1),
);

/** The oldest patient of the scope whose e-mail matches, ignoring case; undefined when none does. */
export async function findPatientByEmail(q: Queryable, scope: Scope, email: string): Promise<PatientRow | undefined> {
  const [row] = await scoped(q, scope).run(patientByEmail, { email: normalizeEmail(email) });
  return row;
}

export async function getPatient(db: Db, p: TenantPrincipal, input: { id: string }, requestId: string | null) {
  return db.transaction(async (tx) => {
    const row = await scoped(tx, p).require(patients, input.id, 'patient');
    await recordAccess(tx, p, [row.id], 'read', requestId);
    return toPatientDto(row);
  });
}

/** Newest first; every patient on the page gets its own access-log entry. */
export async function listPatients(db: Db, p: TenantPrincipal, input: { limit: number; startingAfter?: string }, requestId: string | null) {
  return db.transaction(async (tx) => {
    const rows = await scoped(tx, p).list(patients, { limit: input.limit, startingAfter: input.startingAfter });
    await recordAccess(tx, p, rows.map((r) => r.id), 'list', requestId);
    return rows.map(toPatientDto);
  });
}

/** Changes only the fields sent; `null` clears e-mail, phone or address. `synthetic` is fixed at creation. */
export async function updatePatient(db: Db, p: TenantPrincipal, input: UpdatePatientInput, requestId: string | null) {
  const { id, address, ...rest } = input;
  const set = sentFields(rest) as Partial<PatientRow>;
  if (typeof set.email === 'string') set.email = normalizeEmail(set.email);
  if (address !== undefined) set.address = toAddress(address);
  // A new address moves the state of residence with it; clearing the address keeps the state known.
  if (address) set.state = address.state;
  return db.transaction(async (tx) => {
    const s = scoped(tx, p);
    const existing = await s.require(patients, id, 'patient');
    const row = Object.keys(set).length ? await s.update(patients, id, { ...set, updatedAt: now() }) : existing;
    await recordAccess(tx, p, [id], 'update', requestId);
    return toPatientDto(row ?? existing);
  });
}

/**
 * The state a patient's prescriptions ship to, for routing: not a disclosure of the record, so it writes
 * no access-log entry. Null when the patient has no address; 404 when the id is not the caller's.
 */
export async function getPatientShippingState(db: Queryable, scope: Scope, patientId: string): Promise<string | null> {
  const row = await scoped(db, scope).require(patients, patientId, 'patient');
  return patientStateOf(row);
}
