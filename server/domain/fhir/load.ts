import { and, eq, inArray } from 'drizzle-orm';
import type { MedicationRequest, QuestionnaireResponse } from '@medplum/fhirtypes';
import { intakeAnswers, intakeSubmissions, orders, products, questionnaires, users } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { toFhirMedicationRequest } from './medication-request';
import { questionnaireCanonical } from './questionnaire';
import { toFhirQuestionnaireResponse } from './questionnaire-response';

type OrderRow = typeof orders.$inferSelect;
type SubmissionRow = typeof intakeSubmissions.$inferSelect;

/** The display names of the tenant's users among `ids` (approving providers). */
export async function userNames(q: Queryable, scope: Scope, ids: string[]): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await q
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(and(eq(users.tenantId, scope.tenantId), inArray(users.id, [...new Set(ids)])));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Every line of `rows` as a MedicationRequest, orders in the given order, lines in theirs. */
export async function medicationRequestsOf(q: Queryable, scope: Scope, rows: OrderRow[], lines?: { orderId: string; index: number }[]): Promise<MedicationRequest[]> {
  const wanted = lines ?? rows.flatMap((order) => order.items.map((_, index) => ({ orderId: order.id, index })));
  if (wanted.length === 0) return [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const productIds = [...new Set(wanted.map((l) => byId.get(l.orderId)!.items[l.index]!.productId))];
  const found = await q
    .select({ id: products.id, name: products.name, strength: products.strength, form: products.form, ndc: products.ndc, rxcui: products.rxcui })
    .from(products)
    .where(scoped(q, scope).where(products, inArray(products.id, productIds)));
  const product = new Map(found.map((p) => [p.id, p]));
  const names = await userNames(q, scope, rows.flatMap((r) => (r.approvedBy ? [r.approvedBy] : [])));
  return wanted.map(({ orderId, index }) => {
    const order = byId.get(orderId)!;
    return toFhirMedicationRequest({ order, index, product: product.get(order.items[index]!.productId), approverName: order.approvedBy ? (names.get(order.approvedBy) ?? null) : null });
  });
}

/** The submissions as QuestionnaireResponses, with their answers and the versions they answered. PHI: callers log. */
export async function questionnaireResponsesOf(q: Queryable, scope: Scope, rows: SubmissionRow[], publicUrl: string): Promise<QuestionnaireResponse[]> {
  if (rows.length === 0) return [];
  const s = scoped(q, scope);
  const versions = await q
    .select({ id: questionnaires.id, tenantId: questionnaires.tenantId, livemode: questionnaires.livemode, key: questionnaires.key, document: questionnaires.document })
    .from(questionnaires)
    .where(s.where(questionnaires, inArray(questionnaires.id, [...new Set(rows.map((r) => r.questionnaireId))])));
  const version = new Map(versions.map((v) => [v.id, v]));
  const stored = await q
    .select({ submissionId: intakeAnswers.submissionId, answers: intakeAnswers.answers })
    .from(intakeAnswers)
    .where(
      and(
        eq(intakeAnswers.tenantId, scope.tenantId),
        eq(intakeAnswers.livemode, scope.livemode),
        inArray(
          intakeAnswers.submissionId,
          rows.map((r) => r.id),
        ),
      ),
    );
  const answers = new Map(stored.map((a) => [a.submissionId, a.answers]));
  return rows.flatMap((submission) => {
    const v = version.get(submission.questionnaireId);
    if (!v) return [];
    return [toFhirQuestionnaireResponse({ submission, document: v.document, canonical: questionnaireCanonical(publicUrl, v), answers: answers.get(submission.id) ?? {} })];
  });
}
