import { AppError } from '@/server/lib/errors';
import type { DocumentProblem } from './validate';

/** `items.3.enableWhen` → the linkId of item 3 when the input has one, so a message can name the item. */
function itemOf(input: unknown, param: string): string | undefined {
  const m = /^items\.(\d+)(?:\.|$)/.exec(param);
  if (!m) return undefined;
  const items = (input as { items?: unknown } | null)?.items;
  const item = Array.isArray(items) ? (items[Number(m[1])] as { linkId?: unknown } | undefined) : undefined;
  const linkId = item?.linkId;
  // Only a well-formed linkId is echoed: anything else in a body could be anything.
  return typeof linkId === 'string' && /^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(linkId) ? linkId : undefined;
}

/** One readable line per problem: where it is (the item by linkId when known) and what is wrong. */
export function describeProblems(input: unknown, problems: DocumentProblem[]) {
  return problems.map((p) => {
    const linkId = itemOf(input, p.param);
    const where = linkId && !p.message.includes(`'${linkId}'`) ? `item '${linkId}' (${p.param})` : p.param || 'document';
    return { param: p.param || undefined, message: `${where}: ${p.message}` };
  });
}

/** A hand-written document that fails the validator: 400, the first problem as `param`, every one in `details`. */
export function invalidDocument(input: unknown, problems: DocumentProblem[]): AppError {
  const lines = describeProblems(input, problems);
  const more = lines.length > 1 ? ` (and ${lines.length - 1} more problem${lines.length > 2 ? 's' : ''}; see details)` : '';
  return new AppError('validation_error', 'invalid_questionnaire', 400, `Invalid questionnaire: ${lines[0].message}${more}`, lines[0].param, undefined, lines);
}

/** A generated draft that fails it: 422 `draft_invalid`, every reason listed in the message and in `details`. */
export function invalidDraft(reasons: { param?: string; message: string }[]): AppError {
  const message = `The generated draft was refused and nothing was saved: ${reasons.map((r) => r.message).join('; ')}`;
  return new AppError('validation_error', 'draft_invalid', 422, message.slice(0, 2000), undefined, undefined, reasons.slice(0, 50));
}
