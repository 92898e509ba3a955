import { createTenantWithKeys, type TestApp } from './harness';
import { eligibleAnswers, publishAndApprove, weightDocument } from './intake-world';
import { ordersWorld } from './orders-world';

/**
 * A clinic with something of every kind the FHIR API serves, made through the REST API: a product coded with
 * NDC and RxNorm, a patient in CA with an approved two-line order (approved by a provider with a verified NPI),
 * an approved questionnaire and a submission answering it, plus a second clinic for the isolation checks.
 */
export async function fhirWorld(app: TestApp, name = 'FHIR') {
  const w = await ordersWorld(app, name);
  const coded = await app.request('PATCH', `/v1/products/${w.products.glp}`, { key: w.key, body: { ndc: '0169-4132-12', rxcui: '1991311', strength: '0.25 mg' } });
  if (coded.status !== 200) throw new Error(`product codes failed: ${coded.status} ${coded.text}`);
  const order = await w.create({
    items: [
      { productId: w.products.glp, quantity: 2, sig: 'Inject 0.25 mg weekly', refills: 3 },
      { productId: w.products.ndl, quantity: 10, sig: 'Use one needle per injection', refills: 0 },
    ],
  });
  if (order.status !== 201) throw new Error(`order failed: ${order.status} ${order.text}`);
  const approved = await w.approve(order.body.id);
  if (approved.status !== 201) throw new Error(`approve failed: ${approved.status} ${approved.text}`);
  const questionnaire = await publishAndApprove(app, w.key, w.provider.token, weightDocument('weight'));
  const submission = await app.request('POST', '/v1/intake/submissions', {
    key: w.key,
    body: { questionnaireKey: 'weight', patientId: w.patients.ca, answers: eligibleAnswers({ goal: 'keep' }) },
  });
  if (submission.status !== 201) throw new Error(`submission failed: ${submission.status} ${submission.text}`);
  const other = await createTenantWithKeys(app, `${name} other`);
  return { ...w, orderId: order.body.id as string, questionnaire, submissionId: submission.body.id as string, other };
}

export type FhirWorld = Awaited<ReturnType<typeof fhirWorld>>;

/** Our id as a FHIR id: `_` written `-`. */
export const fhirId = (id: string) => id.replace('_', '-');

/** A FHIR request: JSON both ways, the key as bearer. */
export function fhir(app: TestApp, method: string, path: string, key: string | null, opts: { body?: unknown; headers?: Record<string, string> } = {}) {
  return app.request(method, `/v1/fhir${path}`, { key, body: opts.body, headers: { accept: 'application/fhir+json', ...(opts.body !== undefined ? { 'content-type': 'application/fhir+json' } : {}), ...opts.headers } });
}
