import type { FulfillmentRail } from '@/sdk/src/index';
import { flowSession, runFlowTo } from './flow-run';
import { UsageError } from '../cli-command';
import { syntheticAnswers } from './intake-answers';
import { orderFor, productAtSimulatedPharmacy, syntheticPatient, type FixtureName } from './trigger-fixtures';

export interface TriggerContext {
  api: FulfillmentRail;
  /** A provider's session, signed in only for the recipes that need an approval, and a state they are licensed in. */
  provider(): Promise<{ session: FulfillmentRail; state: string }>;
  /** Where a recipe without an approval puts its patient: the provider's state when one is given (signed in for it), else CA. */
  patientState(): Promise<string>;
}

export interface Made {
  /** What was created or reused, by name: printed as the trigger's result. */
  ids: Record<string, string>;
  /** The id the awaited event's data names (order, session, submission). */
  subject: string;
}

export interface Recipe {
  needsProvider: boolean;
  run(ctx: TriggerContext): Promise<Made>;
}

/**
 * A new patient in a state the provider is licensed in and a new order for them, of the product at the simulated
 * pharmacy scripted as `fixture` (set up on the first run, reused after), then the provider's approval (which
 * dispatches it).
 */
function approvedOrder(fixture: FixtureName): Recipe {
  return {
    needsProvider: true,
    async run(ctx) {
      const { session, state } = await ctx.provider();
      const patient = await syntheticPatient(ctx.api, state);
      const { product, pharmacy, catalogId } = await productAtSimulatedPharmacy(ctx.api, fixture, state);
      const order = await orderFor(ctx.api, patient.id, product.id);
      await session.orders.approve(order.id);
      return { ids: { patient: patient.id, product: product.id, pharmacy: pharmacy.id, catalog: catalogId, order: order.id }, subject: order.id };
    },
  };
}

const flowRun = (verdict: 'eligible' | 'disqualified'): Recipe => ({
  needsProvider: false,
  run: async ({ api, patientState }) => runFlowTo(api, verdict, await patientState()),
});

export const RECIPES: Record<string, Recipe> = {
  'order.routed': approvedOrder('holds'),
  'order.submitted': approvedOrder('holds'),
  'order.shipped': approvedOrder('ships'),
  'order.delivered': approvedOrder('delivers'),
  'order.rejected': approvedOrder('rejects'),
  // An order no pharmacy ever held can be cancelled by the clinic itself: no approval needed.
  'order.cancelled': {
    needsProvider: false,
    async run({ api, patientState }) {
      const state = await patientState();
      const patient = await syntheticPatient(api, state);
      const { product, pharmacy } = await productAtSimulatedPharmacy(api, 'holds', state);
      const order = await orderFor(api, patient.id, product.id);
      await api.orders.cancel(order.id);
      return { ids: { patient: patient.id, product: product.id, pharmacy: pharmacy.id, order: order.id }, subject: order.id };
    },
  },
  'intake.submission.created': {
    needsProvider: false,
    async run({ api, patientState }) {
      const questionnaires = await api.get('/intake/questionnaires');
      const q = questionnaires[0];
      if (!q) throw new UsageError('This tenant has no approved questionnaire yet (a provider approves one in the console; the demo clinic has three).');
      const state = await patientState();
      const patient = await syntheticPatient(api, state);
      const answers = syntheticAnswers(q.document, { dateOfBirth: patient.dateOfBirth, state, sex: patient.sex });
      const submission = await api.post('/intake/submissions', { body: { questionnaireKey: q.key, patientId: patient.id, answers } });
      return { ids: { questionnaire: q.key, patient: patient.id, submission: submission.id }, subject: submission.id };
    },
  },
  'flow.viewed': {
    needsProvider: false,
    async run({ api }) {
      const { embedKey, flow, sessionId } = await flowSession(api);
      return { ids: { flow: flow.flowId, embedKey, session: sessionId }, subject: sessionId };
    },
  },
  'step.completed': {
    needsProvider: false,
    async run({ api }) {
      const { patientSide, embedKey, flow, sessionId } = await flowSession(api);
      const first = flow.steps[0];
      await patientSide.post('/public/flows/{embedKey}/sessions/{id}/steps', { params: { path: { embedKey, id: sessionId } }, body: { stepId: first.id, answers: {} } });
      return { ids: { flow: flow.flowId, embedKey, session: sessionId, step: first.id }, subject: sessionId };
    },
  },
  'flow.qualified': flowRun('eligible'),
  'flow.session.qualified': flowRun('eligible'),
  'flow.disqualified': flowRun('disqualified'),
  'flow.session.completed': flowRun('eligible'),
};

/** Event types the CLI does not make, and how to make them instead. */
export const NOT_TRIGGERABLE: Record<string, string> = {
  'flow.published': "a provider's approval of a flow's clinical content in the console (publishing changes what patients read, so the CLI leaves it to people)",
  'experiment.exposed': 'a running experiment on a flow (created in the console; it changes what patients read), then a new session of that flow',
  'flow.checkout.completed': "the clinic store's signed checkout callback after an eligible run with the flow_checkout feature on",
};
