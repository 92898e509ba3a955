/**
 * The eligibility engine (DESIGN decision 19). Its code lives in server/lib/questionnaire-engine.ts, the bottom
 * layer, so the patient's form (components/intake) can show and hide questions with the very walk that decides
 * here; this module keeps the engine's place and API in the intake area.
 */
export * from '@/server/lib/questionnaire-engine';
