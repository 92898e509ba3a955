import type { RouterOutputs } from '@/lib/console/types';

/** A stored questionnaire version, as the console's library reads it. */
export type QuestionnaireVersion = RouterOutputs['intake']['questionnaireVersions'][number];
export type QuestionnaireDoc = QuestionnaireVersion['document'];
export type QItem = QuestionnaireDoc['items'][number];
export type QRule = QuestionnaireDoc['rules'][number];
export type QCondition = NonNullable<QItem['enableWhen']>;
export type QStatus = QuestionnaireVersion['status'];
