import type { RouterOutputs } from '@/web/console/types';

export type GoLiveChecklist = RouterOutputs['overview']['goLive'];
export type GoLiveStep = GoLiveChecklist['steps'][number];

export interface StepWords {
  title: string;
  /** Where the step stands, in a sentence. */
  text: string;
  /** A caution that does not undo the step (a simulated pharmacy in live mode, no provider to approve). */
  caution?: string;
  action: string;
}

const STRATEGY: Record<string, string> = {
  lowest_cost: 'the cheapest qualifying pharmacy',
  fastest: 'the fastest qualifying pharmacy',
  priority: 'the first qualifying pharmacy of your priority list',
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const more = (n: number) => (n > 1 ? ` (and ${n - 1} more)` : '');

const NO_APPROVER =
  'No provider on the team can approve yet: a provider needs a verified NPI and two-factor authentication. Invite one on the Team page; ask Fulfillment Rail support to verify the NPI.';

/**
 * The checklist's words: each step's title, where it stands and what to press, from the codes the
 * server reports (overview.goLive). Names are the clinic's own (pharmacy, protocol, questionnaire, flow, key).
 */
export function stepWords(step: GoLiveStep, c: Pick<GoLiveChecklist, 'mode' | 'approvers'>): StepWords {
  const name = step.subject?.name ?? '';
  const quoted = `“${name}”`;
  switch (step.id) {
    case 'product':
      return {
        title: 'Add a product',
        text:
          step.status === 'done'
            ? `${plural(step.count, 'active product')} to prescribe.`
            : step.status === 'inactive'
              ? 'Every product is inactive: activate one, or add the medication the clinic prescribes.'
              : 'Add the medication the clinic prescribes: its name, SKU, form and strength.',
        action: 'Go to Products',
      };
    case 'pharmacy': {
      const simulated = c.mode === 'live' && step.detail === 'simulated';
      return {
        title: 'Connect a pharmacy with an approved catalog',
        text:
          step.status === 'done'
            ? `${quoted} fills orders from its approved catalog${more(step.count)}.`
            : step.status === 'catalog_pending'
              ? `${quoted} has a catalog waiting for review: read its lines and approve it.`
              : step.status === 'catalog_missing'
                ? `${quoted} has no catalog yet: upload its price list (CSV) and approve it.`
                : step.status === 'disabled'
                  ? `${quoted} is disabled: enable it, or connect another pharmacy.`
                  : 'Connect the pharmacy that fills the prescriptions, then upload its price list (CSV) and approve it.',
        caution: simulated
          ? 'This is a simulated pharmacy: live orders will not reach a real pharmacy. Connect your pharmacy’s HTTPS endpoint (the http adapter) before taking real patients.'
          : undefined,
        action: 'Go to Pharmacies',
      };
    }
    case 'routing':
      return {
        title: 'Set the routing policy',
        text:
          step.status === 'done'
            ? `Saved: each order goes to ${STRATEGY[step.detail ?? ''] ?? 'the pharmacy the policy chooses'}.`
            : `Review how an order chooses its pharmacy (until you save, ${STRATEGY[step.detail ?? ''] ?? 'the default'}) and save the policy.`,
        action: 'Go to Routing',
      };
    case 'protocol':
      return {
        title: 'Create a protocol',
        text:
          step.status === 'done'
            ? `${quoted}${more(step.count)} is ready to prescribe.`
            : step.status === 'inactive'
              ? `${quoted} is inactive: create an active protocol.`
              : 'Say what a provider’s approval orders: the products, each with its quantity, directions (sig) and refills.',
        action: 'Go to Protocols',
      };
    case 'questionnaire':
      return {
        title: 'Get a questionnaire approved',
        text:
          step.status === 'done'
            ? `${quoted} (${step.detail}) is approved.`
            : step.status === 'waiting_for_provider'
              ? `${quoted} (${step.detail}) waits for a provider’s approval.`
              : 'Write the medical questions and the rules that decide eligibility, then publish them for a provider’s approval.',
        caution: step.status === 'waiting_for_provider' && c.approvers === 0 ? NO_APPROVER : undefined,
        action: step.status === 'waiting_for_provider' ? 'Go to the approvals' : step.status === 'done' ? 'Go to the questionnaire' : 'Write a questionnaire',
      };
    case 'flow':
      return {
        title: 'Publish a flow',
        text:
          step.status === 'done'
            ? `${quoted} is published (version ${step.detail}).`
            : step.status === 'waiting_for_provider'
              ? `${quoted} waits for a provider’s approval of its clinical steps.`
              : step.status === 'unpublished'
                ? `${quoted} is a draft: choose its protocol (Settings → Protocol) and publish it.`
                : 'Create a flow around the approved questionnaire: the pages a patient goes through.',
        caution: step.status === 'waiting_for_provider' && c.approvers === 0 ? NO_APPROVER : undefined,
        action: step.status === 'missing' ? 'Go to Flows' : 'Open the flow',
      };
    case 'embedKey':
      return {
        title: 'Create an embed key with your site’s origins',
        text:
          step.status === 'done'
            ? `${quoted} serves the published flow on the sites it allows.`
            : step.status === 'no_origins'
              ? `${quoted} allows no site yet: add your site’s origin, such as https://www.yourclinic.com.`
              : step.status === 'blocked'
                ? 'Comes after a published flow: the key names the flow it serves.'
                : 'Create a key for the published flow and list the sites (origins) allowed to show it.',
        action: 'Go to Embed keys',
      };
  }
}
