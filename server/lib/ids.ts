import { typeid } from 'typeid-js';

export const ID_PREFIXES = {
  tenant: 'ten',
  user: 'usr',
  apiKey: 'key',
  order: 'ord',
  patient: 'pat',
  product: 'prd',
  protocol: 'prt',
  catalog: 'cat',
  pharmacyConnection: 'phc',
  webhookEndpoint: 'we',
  event: 'evt',
  delivery: 'whd',
  questionnaire: 'iq',
  intakeSubmission: 'isub',
  flow: 'flw',
  flowVersion: 'fv',
  flowSession: 'fs',
  experiment: 'exp',
  embedKey: 'emb',
  request: 'req',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

/** Sortable ids (prefix + UUIDv7), so ordering by id is ordering by creation time. */
export function newId(kind: IdKind): string {
  return typeid(ID_PREFIXES[kind]).toString();
}
