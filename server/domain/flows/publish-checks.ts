import { protocols } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { walk } from '@/server/domain/intake/condition-walk';
import { findApprovedQuestionnaire, type QuestionnaireRow } from '@/server/domain/intake/questionnaire-store';
import { errors } from '@/server/lib/errors';
import { DERIVED } from '@/server/domain/intake/shared/shapes';
import { UrlRejected, validateWebhookUrl, type UrlPolicy } from '@/server/lib/ssrf';
import type { FlowDocument } from './flow-schema';

/** The items a condition's operand reads: the item itself, or those behind `age(…)` and `bmi(…, …)`. */
function operandLinkIds(q: string): string[] {
  const m = DERIVED.exec(q);
  if (!m) return [q];
  return m[1] ? [m[2]] : [m[4], m[5]];
}

/**
 * How the draft's medical pages cover the questionnaire: every linkId exists, every item is on exactly one
 * page (a page twice is caught by the structure check), and an item's `enableWhen` reads only items of its
 * own page, so the browser can show or hide it from the answers on screen. 400 naming the step's field.
 */
export function coverageProblem(doc: FlowDocument, questionnaire: QuestionnaireRow): { param: string; message: string } | null {
  const qref = `questionnaire '${questionnaire.key}' (version ${questionnaire.version})`;
  const items = new Map(questionnaire.document.items.map((item) => [item.linkId, item]));
  const pageOf = new Map<string, { step: number; index: number }>();
  for (const [i, step] of doc.steps.entries()) {
    if (step.kind !== 'medical') continue;
    for (const [j, linkId] of step.linkIds.entries()) {
      if (!items.has(linkId)) return { param: `steps.${i}.linkIds.${j}`, message: `Step '${step.id}' names question '${linkId}', which ${qref} does not have.` };
      pageOf.set(linkId, { step: i, index: j });
    }
  }
  for (const item of items.values()) {
    if (!pageOf.has(item.linkId)) return { param: 'steps', message: `Question '${item.linkId}' of ${qref} is on no medical step; every question must be on exactly one.` };
  }
  for (const item of items.values()) {
    if (!item.enableWhen) continue;
    const at = pageOf.get(item.linkId)!;
    const found: { param: string; message: string }[] = [];
    walk(item.enableWhen, 'enableWhen', (cmp) => {
      for (const read of operandLinkIds(cmp.q)) {
        const other = pageOf.get(read);
        if (!other || other.step === at.step) continue;
        const stepId = doc.steps[at.step].id;
        found.push({
          param: `steps.${at.step}.linkIds.${at.index}`,
          message: `Question '${item.linkId}' on step '${stepId}' is shown depending on '${read}', which is on step '${doc.steps[other.step].id}'; put both on the same medical step.`,
        });
      }
    });
    if (found.length) return found[0];
  }
  return null;
}

/**
 * The checks publication needs the database for (the document already passed `parseFlowDocument`): the
 * questionnaire key has an approved version (the one the version pins), the medical pages cover it exactly,
 * the protocol (the flow's, else the questionnaire's) is the account's and active, and conversion postback
 * URLs pass the webhook URL rules. Returns the questionnaire version to pin.
 */
export async function checkPublishable(q: Queryable, scope: Scope, doc: FlowDocument, policy: UrlPolicy): Promise<QuestionnaireRow> {
  const questionnaire = await findApprovedQuestionnaire(q, scope, doc.settings.questionnaireKey);
  if (!questionnaire) {
    throw errors.validation(`Questionnaire '${doc.settings.questionnaireKey}' has no approved version in this mode; a provider must approve one first.`, 'settings.questionnaireKey', 'questionnaire_not_approved');
  }
  const problem = coverageProblem(doc, questionnaire);
  if (problem) throw errors.validation(problem.message, problem.param, 'invalid_flow');
  const protocolId = doc.settings.protocolId ?? questionnaire.document.protocolId;
  if (!protocolId) {
    throw errors.validation(
      `Choose the protocol this flow prescribes: set settings.protocolId to a protocol of this account in this mode, or give questionnaire '${questionnaire.key}' one. A provider's approval of a patient orders from it.`,
      'settings.protocolId',
      'protocol_required',
    );
  }
  const protocol = await scoped(q, scope).get(protocols, protocolId);
  if (!protocol) {
    const named = doc.settings.protocolId ? 'settings.protocolId' : `The protocolId of questionnaire '${questionnaire.key}'`;
    throw errors.validation(`${named} names no protocol of this account in this mode; choose one of its protocols.`, 'settings.protocolId', 'unknown_protocol');
  }
  if (!protocol.active) throw errors.validation(`Protocol '${protocol.name}' is inactive; activate it or choose another.`, 'settings.protocolId', 'protocol_inactive');
  for (const [i, url] of (doc.settings.conversionPostbacks ?? []).entries()) {
    try {
      await validateWebhookUrl(url, policy);
    } catch (err) {
      if (err instanceof UrlRejected) throw errors.validation(err.message, `settings.conversionPostbacks.${i}`, err.code);
      throw err;
    }
  }
  return questionnaire;
}
