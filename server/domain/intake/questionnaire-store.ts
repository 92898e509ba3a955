import { and, desc, eq, getTableColumns } from 'drizzle-orm';
import { questionnaires } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { errors } from '@/server/lib/errors';

export type QuestionnaireRow = typeof questionnaires.$inferSelect;

/*
 * A version's document never changes once published (approval and retirement change its status only), so the
 * process keeps parsed documents by version id: a submission then reads the small row instead of the document's
 * jsonb again, and the engine's compile cache (keyed by the document object) hits after the first submission.
 * Shared between requests: documents are read-only everywhere (the engine relies on that already).
 */
const MAX_CACHED_DOCUMENTS = 2000;
const documents = new Map<string, { contentHash: string; document: QuestionnaireRow['document'] }>();
const { document: _document, ...rowWithoutDocument } = getTableColumns(questionnaires);

async function withDocument(q: Queryable, scope: Scope, row: Omit<QuestionnaireRow, 'document'>): Promise<QuestionnaireRow> {
  const cached = documents.get(row.id);
  if (cached && cached.contentHash === row.contentHash) return { ...row, document: cached.document };
  const s = scoped(q, scope);
  const [found] = await q.select({ document: questionnaires.document }).from(questionnaires).where(s.where(questionnaires, eq(questionnaires.id, row.id)));
  if (!found) throw errors.notFound('questionnaire', row.key);
  if (documents.size >= MAX_CACHED_DOCUMENTS) documents.clear();
  documents.set(row.id, { contentHash: row.contentHash, document: found.document });
  return { ...row, document: found.document };
}

/**
 * The approved version of a questionnaire by key: the newest, or the given version if it was ever approved
 * (a retired version still explains an old submission). Unknown → the spec's 404.
 */
export async function findApprovedQuestionnaire(q: Queryable, scope: Scope, key: string, version?: number): Promise<QuestionnaireRow | undefined> {
  const s = scoped(q, scope);
  const [row] = await q
    .select(rowWithoutDocument)
    .from(questionnaires)
    .where(
      s.where(
        questionnaires,
        eq(questionnaires.key, key),
        version === undefined ? eq(questionnaires.status, 'approved') : and(eq(questionnaires.version, version)),
      ),
    )
    .orderBy(desc(questionnaires.version))
    .limit(1);
  if (!row) return undefined;
  if (version !== undefined && row.approvedAt === null) return undefined;
  return withDocument(q, scope, row);
}

/** Like `findApprovedQuestionnaire`, usable for new submissions only when the version is the current approved one. */
export async function requireUsableQuestionnaire(q: Queryable, scope: Scope, key: string): Promise<QuestionnaireRow> {
  const row = await findApprovedQuestionnaire(q, scope, key);
  if (!row) throw errors.notFound('questionnaire', key);
  return row;
}
