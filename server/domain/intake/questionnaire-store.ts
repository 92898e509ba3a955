import { and, desc, eq } from 'drizzle-orm';
import { questionnaires } from '@/db/schema';
import { scoped, type Scope } from '@/server/db/scoped';
import type { Queryable } from '@/server/db/types';
import { errors } from '@/server/lib/errors';

export type QuestionnaireRow = typeof questionnaires.$inferSelect;

/**
 * The approved version of a questionnaire by key: the newest, or the given version if it was ever approved
 * (a retired version still explains an old submission). Unknown → the spec's 404.
 */
export async function findApprovedQuestionnaire(q: Queryable, scope: Scope, key: string, version?: number): Promise<QuestionnaireRow | undefined> {
  const s = scoped(q, scope);
  const [row] = await q
    .select()
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
  return row;
}

/** Like `findApprovedQuestionnaire`, usable for new submissions only when the version is the current approved one. */
export async function requireUsableQuestionnaire(q: Queryable, scope: Scope, key: string): Promise<QuestionnaireRow> {
  const row = await findApprovedQuestionnaire(q, scope, key);
  if (!row) throw errors.notFound('questionnaire', key);
  return row;
}
