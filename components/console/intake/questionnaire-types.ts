import type { RouterOutputs } from '@/web/console/types';

/** A stored questionnaire version, as the console's library reads it (with what its protocol prescribes). */
export type QuestionnaireVersion = RouterOutputs['intake']['questionnaireVersions'][number];
/** A version as publishing or approving answers it: the API's record, without the protocol's details. */
export type QuestionnaireRecord = RouterOutputs['intake']['approveQuestionnaire'];
export type QuestionnaireDoc = QuestionnaireVersion['document'];
export type QProtocol = NonNullable<QuestionnaireVersion['protocol']>;
export type QItem = QuestionnaireDoc['items'][number];
export type QRule = QuestionnaireDoc['rules'][number];
export type QCondition = NonNullable<QItem['enableWhen']>;
export type QStatus = QuestionnaireVersion['status'];
