import type { QuestionnaireDocument } from '../questionnaire-schema';
import { generalRefill } from './general-refill';
import { hairLoss } from './hair-loss';
import { weightManagement } from './weight-management';

export { generalRefill, hairLoss, weightManagement };

/**
 * Realistic questionnaires for the demo seed and the offline AI draft generator. They carry no protocolId
 * (the seed adds its own); each passes `validateQuestionnaire` (tests/intake-validate.test.ts).
 */
export const QUESTIONNAIRE_LIBRARY: readonly QuestionnaireDocument[] = [weightManagement, hairLoss, generalRefill];
