import type { IdentityField, PatientAddress } from '@/db/schema';
import type { Queryable } from '@/server/db/types';
import type { TenantPrincipal } from '@/server/domain/auth/principal';
import { findPatientByEmail, insertPatient, type PatientFields } from '@/server/domain/patients/patients';
import { generateSyntheticPatient } from '@/server/domain/patients/synthetic';
import { normalizeEmail } from '@/server/lib/email';
import { errors } from '@/server/lib/errors';
import type { IdentityFacts } from './identity-facts';

type PatientRow = Awaited<ReturnType<typeof insertPatient>>;

/** "Ada King Lovelace" → first "Ada King", last "Lovelace"; a single word is the first name, the last name empty. */
export function splitName(name: string): { firstName: string; lastName: string } {
  const words = name.trim().split(/\s+/);
  if (words.length === 1) return { firstName: words[0], lastName: '' };
  return { firstName: words.slice(0, -1).join(' '), lastName: words[words.length - 1] };
}

/** Who a public caller says they are, with the reconciled identity facts of the submission. */
export interface PublicPerson {
  name: string;
  email: string;
  facts: IdentityFacts;
  phone?: string | null;
  address?: PatientAddress | null;
}

export interface MatchedPatient {
  patient: PatientRow;
  /** The facts of a matched record that differ from the submission's (names only); empty when none do. */
  mismatch: IdentityField[];
  /** Made from this submission (a new live patient, or sandbox's synthetic one), not matched to an existing record. */
  created: boolean;
}

const fold = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * Which identity facts of an existing record differ from a submission's (DESIGN decision 32): date of birth,
 * sex at birth (a record whose sex was never recorded, `unknown`, differs from nothing) and last name
 * (ignoring case and spacing). A fact either side did not record (no date of birth or sex given, a name of one
 * word, a record without a last name) differs from nothing: it is not recorded, not different.
 */
export function differingFields(existing: Pick<PatientRow, 'dateOfBirth' | 'sex' | 'lastName'>, person: Pick<PublicPerson, 'name' | 'facts'>): IdentityField[] {
  const fields: IdentityField[] = [];
  const { dateOfBirth, sexAtBirth } = person.facts;
  if (dateOfBirth !== undefined && dateOfBirth !== existing.dateOfBirth) fields.push('dateOfBirth');
  if (sexAtBirth !== undefined && sexAtBirth !== 'unknown' && existing.sex !== 'unknown' && sexAtBirth !== existing.sex) fields.push('sexAtBirth');
  const lastName = fold(splitName(person.name).lastName);
  if (lastName && fold(existing.lastName) && lastName !== fold(existing.lastName)) fields.push('lastName');
  return fields;
}

/** A new live patient from a submission's person; the date of birth is required to create one. */
export function newPatientFields(person: PublicPerson, missingDateOfBirth: () => Error): PatientFields {
  const { dateOfBirth, sexAtBirth, state } = person.facts;
  if (!dateOfBirth) throw missingDateOfBirth();
  return {
    ...splitName(person.name),
    dateOfBirth,
    sex: sexAtBirth ?? 'unknown',
    email: normalizeEmail(person.email),
    phone: person.phone ?? null,
    address: person.address ?? null,
    // Kept even without an address, so the provider's licence can be checked (no more patient_state_unknown).
    state: person.address?.state ?? state ?? null,
    allergies: [],
    medications: [],
  };
}

/**
 * The patient of a public submission (public intake, flows). A live patient is matched by e-mail (ignoring
 * case) within the tenant and mode; a matched record is never changed by an unauthenticated caller, and when
 * its date of birth, sex at birth or last name differs, the match is returned with those field names, for
 * the submission to carry the blocking flag `identity_mismatch`. No match: a patient is created from what
 * was sent. In sandbox nothing sent is kept: a fresh synthetic patient in the declared state.
 */
export async function publicPatient(tx: Queryable, actor: TenantPrincipal, person: PublicPerson, missingDateOfBirth: () => Error, requestId: string | null): Promise<MatchedPatient> {
  if (!actor.livemode) {
    const synthetic = generateSyntheticPatient();
    const state = person.facts.state;
    const address = synthetic.address && state ? { ...synthetic.address, state } : synthetic.address;
    return { patient: await insertPatient(tx, actor, { ...synthetic, address }, requestId), mismatch: [], created: true };
  }
  const existing = await findPatientByEmail(tx, actor, person.email);
  if (existing) return { patient: existing, mismatch: differingFields(existing, person), created: false };
  return { patient: await insertPatient(tx, actor, newPatientFields(person, missingDateOfBirth), requestId), mismatch: [], created: true };
}

/** The 400 of a path that asked no date of birth anywhere. */
export const dateOfBirthRequired = (param: string, message: string) => () => errors.validation(message, param, 'parameter_missing');
