import { and, count, desc, eq, not, or, sql, type SQL } from 'drizzle-orm';
import { intakeSubmissions, orders, patients } from '@/db/schema';
import { scoped } from '@/server/db/scoped';
import { recordAccess } from '@/server/domain/patients/access-log';
import { normalizeEmail } from '@/server/lib/email';
import type { Page, SearchResult } from './bundle';
import { medicationRequestsOf, questionnaireResponsesOf } from './load';
import { toFhirPatient } from './patient';
import type { FhirCaller } from './reads';
import { dateRange, patientReference, token, type Criteria } from './search-params';
import { fromFhirId } from './shared/ids';
import { SYSTEMS } from './systems';

const NOTHING = sql`false`;
const likeEscaped = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);

/** One alternative of one Patient parameter as SQL. */
function patientCondition(param: string, value: string): SQL {
  switch (param) {
    case '_id': {
      const id = fromFhirId(value, 'pat');
      return id ? eq(patients.id, id) : NOTHING;
    }
    case 'email':
      return sql`lower(${patients.email}) = ${normalizeEmail(value)}`;
    // FHIR string search: case-insensitive "starts with" unless :exact (as written) or :contains.
    case 'family':
      return sql`lower(${patients.lastName}) like ${`${likeEscaped(value.toLowerCase())}%`}`;
    case 'family:contains':
      return sql`lower(${patients.lastName}) like ${`%${likeEscaped(value.toLowerCase())}%`}`;
    case 'family:exact':
      return eq(patients.lastName, value);
    case 'birthdate': {
      const { prefix, from, to } = dateRange(value, param);
      const within = sql`(${patients.dateOfBirth} >= ${from} and ${patients.dateOfBirth} <= ${to})`;
      if (prefix === 'ne') return not(within);
      if (prefix === 'lt') return sql`${patients.dateOfBirth} < ${from}`;
      if (prefix === 'gt') return sql`${patients.dateOfBirth} > ${to}`;
      if (prefix === 'le') return sql`${patients.dateOfBirth} <= ${to}`;
      if (prefix === 'ge') return sql`${patients.dateOfBirth} >= ${from}`;
      return within;
    }
    case 'identifier': {
      // Patients carry one identifier: their id as the REST API spells it, under the project's system.
      const { system, code } = token(value);
      return system === undefined || system === SYSTEMS.patientId ? eq(patients.id, code) : NOTHING;
    }
    default:
      return NOTHING;
  }
}

/** Every occurrence ANDed, the alternatives of each ORed. */
const whereOf = (criteria: Criteria) => and(...[...criteria].flatMap(([param, occurrences]) => occurrences.map((alternatives) => or(...alternatives.map((v) => patientCondition(param, v))))));

/** Patient?…: the page of matching patients, newest first; each one disclosed gets a `list` entry in the access log. */
export async function searchPatients(c: FhirCaller, criteria: Criteria, page: Page): Promise<SearchResult> {
  return c.db.transaction(async (tx) => {
    const where = scoped(tx, c.principal).where(patients, whereOf(criteria));
    const [{ total }] = await tx.select({ total: count() }).from(patients).where(where);
    const rows = page.count === 0 ? [] : await tx.select().from(patients).where(where).orderBy(desc(patients.id)).limit(page.count).offset(page.offset);
    await recordAccess(tx, c.principal, rows.map((r) => r.id), 'list', c.requestId);
    return { matches: rows.map(toFhirPatient), total: Number(total) };
  });
}

/** The one patient a `patient` parameter names (AND of occurrences, OR of alternatives); null: none can match. */
function patientOf(criteria: Criteria): string | null {
  const ids = (criteria.get('patient') ?? []).map((alternatives) => new Set(alternatives.map(patientReference).filter((id): id is string => id !== null)));
  if (ids.length === 0) return null;
  const both = [...ids[0]!].filter((id) => ids.every((set) => set.has(id)));
  return both.length === 1 ? both[0]! : null;
}

/** MedicationRequest?patient=: every line of the patient's orders, newest order first. */
export async function searchMedicationRequests(c: FhirCaller, criteria: Criteria, page: Page): Promise<SearchResult> {
  const patientId = patientOf(criteria);
  if (!patientId) return { matches: [], total: 0 };
  return c.db.transaction(async (tx) => {
    const rows = await tx.select().from(orders).where(scoped(tx, c.principal).where(orders, eq(orders.patientId, patientId))).orderBy(desc(orders.id));
    const lines = rows.flatMap((order) => order.items.map((_, index) => ({ orderId: order.id, index })));
    const pageLines = lines.slice(page.offset, page.offset + page.count);
    const matches = await medicationRequestsOf(tx, c.principal, rows, pageLines);
    if (matches.length) await recordAccess(tx, c.principal, [patientId], 'read', c.requestId);
    return { matches, total: lines.length };
  });
}

/** QuestionnaireResponse?patient=: the patient's submissions, newest first, each read logged as `intake_read`. */
export async function searchQuestionnaireResponses(c: FhirCaller, criteria: Criteria, page: Page): Promise<SearchResult> {
  const patientId = patientOf(criteria);
  if (!patientId) return { matches: [], total: 0 };
  return c.db.transaction(async (tx) => {
    const where = scoped(tx, c.principal).where(intakeSubmissions, eq(intakeSubmissions.patientId, patientId));
    const [{ total }] = await tx.select({ total: count() }).from(intakeSubmissions).where(where);
    const rows = page.count === 0 ? [] : await tx.select().from(intakeSubmissions).where(where).orderBy(desc(intakeSubmissions.id)).limit(page.count).offset(page.offset);
    const matches = await questionnaireResponsesOf(tx, c.principal, rows, c.publicUrl);
    if (matches.length) await recordAccess(tx, c.principal, [patientId], 'intake_read', c.requestId);
    return { matches, total: Number(total) };
  });
}
