import type { Practitioner } from '@medplum/fhirtypes';
import type { users } from '@/db/schema';
import { toFhirId } from './shared/ids';
import { SYSTEMS } from './systems';

type UserRow = typeof users.$inferSelect;

/** A provider as FHIR Practitioner: the NPI under the US NPI system, the name as the console shows it. No PHI. */
export function toFhirPractitioner(row: Pick<UserRow, 'id' | 'name' | 'npi' | 'npiVerifiedAt' | 'deactivatedAt'>): Practitioner {
  return {
    resourceType: 'Practitioner',
    id: toFhirId(row.id),
    // An NPI nobody has verified yet is not vouched for: only a verified one is given as the identifier.
    identifier: row.npi && row.npiVerifiedAt ? [{ use: 'official', system: SYSTEMS.npi, value: row.npi }] : undefined,
    active: row.deactivatedAt === null,
    name: row.name ? [{ text: row.name }] : undefined,
  };
}
