import type { Address, ContactPoint, Patient } from '@medplum/fhirtypes';
import type { patients } from '@/db/schema';
import { toFhirId } from './shared/ids';
import { EXTENSIONS, SYSTEMS } from './systems';

type PatientRow = typeof patients.$inferSelect;

// FHIR's administrative gender has no "intersex": `other` is its word for it.
const GENDER = { female: 'female', male: 'male', intersex: 'other', unknown: 'unknown' } as const;
// US Core birth sex is F, M or UNK: an intersex birth is neither F nor M, so UNK.
const BIRTH_SEX = { female: 'F', male: 'M', intersex: 'UNK', unknown: 'UNK' } as const;

function addressOf(row: PatientRow): Address[] | undefined {
  const a = row.address;
  if (a) return [{ use: 'home', type: 'both', line: [a.line1, ...(a.line2 ? [a.line2] : [])], city: a.city, state: a.state, postalCode: a.postalCode, country: 'US' }];
  // The state of residence alone (public intake records one without an address).
  return row.state ? [{ use: 'home', state: row.state, country: 'US' }] : undefined;
}

function telecomOf(row: PatientRow): ContactPoint[] | undefined {
  const telecom: ContactPoint[] = [];
  if (row.email) telecom.push({ system: 'email', value: row.email, use: 'home' });
  // No `use`: the record does not say whether the number is a mobile one.
  if (row.phone) telecom.push({ system: 'phone', value: row.phone });
  return telecom.length ? telecom : undefined;
}

/** A patient record as FHIR R4 Patient with US Core's birth-sex extension. PHI: the caller logs the read. */
export function toFhirPatient(row: PatientRow): Patient {
  return {
    resourceType: 'Patient',
    id: toFhirId(row.id),
    meta: {
      lastUpdated: row.updatedAt.toISOString(),
      // Sandbox patients are synthetic: labelled as test data so no EHR mistakes them for a person.
      ...(row.synthetic ? { security: [{ system: SYSTEMS.actReason, code: 'HTEST', display: 'test health data' }] } : {}),
    },
    extension: [{ url: EXTENSIONS.birthSex, valueCode: BIRTH_SEX[row.sex] }],
    identifier: [{ use: 'usual', system: SYSTEMS.patientId, value: row.id }],
    active: true,
    name: [{ use: 'official', family: row.lastName, given: [row.firstName] }],
    telecom: telecomOf(row),
    gender: GENDER[row.sex],
    birthDate: row.dateOfBirth,
    address: addressOf(row),
  };
}
