import { router } from '@/server/api/trpc';
import { approveQuestionnaireRoute } from './approve-questionnaire';
import { draftQuestionnaireRoute } from './draft-questionnaire';
import { getQuestionnaireRoute } from './get-questionnaire';
import { listQuestionnaireDraftsRoute } from './list-questionnaire-drafts';
import { listQuestionnairesRoute } from './list-questionnaires';
import { publishQuestionnaireRoute } from './publish-questionnaire';
import { validateQuestionnaireRoute } from './validate-questionnaire';
import { consoleQuestionnaireVersionsRoute } from './questionnaire-versions';
import { submissionsRoutes } from './submissions-router';
import { hostedRoutes } from './hosted-router';

// Fixed paths (`/drafts`, `/ai-draft`, `/validate`) before `{key}` and `{id}`: the first matching path wins.
export const intakeRouter = router({
  listQuestionnaireDrafts: listQuestionnaireDraftsRoute,
  draftQuestionnaire: draftQuestionnaireRoute,
  listQuestionnaires: listQuestionnairesRoute,
  publishQuestionnaire: publishQuestionnaireRoute,
  validateQuestionnaire: validateQuestionnaireRoute,
  getQuestionnaire: getQuestionnaireRoute,
  approveQuestionnaire: approveQuestionnaireRoute,
  questionnaireVersions: consoleQuestionnaireVersionsRoute,
  ...submissionsRoutes,
  ...hostedRoutes,
});
