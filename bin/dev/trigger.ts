import { EVENT_TYPES } from '@/server/domain/events/catalog';
import { FulfillmentRail, FulfillmentRailError, modeFromKey } from '@/sdk/src/index';
import { UsageError, type LiveIo, type Result } from '../cli-command';
import { providerSession, requireProviderCredentials, type ProviderCredentials } from './provider-session';
import { FIXTURES } from './trigger-fixtures';
import { NOT_TRIGGERABLE, RECIPES, type TriggerContext } from './trigger-recipes';
import { waitForEvent } from './wait-event';

export interface TriggerSettings {
  type: string;
  apiKey: string;
  baseUrl: string;
  provider: ProviderCredentials;
  /** How long to wait for the event to appear in the log (the worker and the simulated pharmacy act shortly after). */
  waitMs?: number;
}

export const TRIGGER_HELP = [
  `Triggerable: ${Object.keys(RECIPES).join(', ')}.`,
  '  The order events other than order.cancelled need a provider (approval is a person\'s act): --provider-email/--provider-password,',
  '  and --provider-totp-secret once two-factor authentication is enrolled: the CLI enrols it on first use and prints the secret;',
  '  enrolled in the console, it is the secret the Account page shows beside the QR code while enrolling (or that QR code\'s otpauth:// URI).',
  '  Each run makes a new synthetic patient, in a state the provider is licensed in (CA when no provider is given), and a new order;',
  `  the simulated pharmacy and product of each script (${Object.values(FIXTURES).map((f) => f.sku).join(', ')}) are set up once and reused.`,
  'Not made by the CLI:',
  ...Object.entries(NOT_TRIGGERABLE).map(([type, how]) => `  ${type}: ${how}`),
].join('\n');

/** CA when the licences include it (the demo's patients live there), else the first alphabetically. */
const pickState = (states: readonly string[]) => (states.includes('CA') ? 'CA' : [...states].sort()[0]);

/**
 * `trigger <type>`: in sandbox, makes the real objects whose life produces the event, through the public API (the
 * SDK), then waits for the event in the log and prints its id with theirs. Live keys are refused: a trigger
 * creates patients, products and orders.
 */
export async function trigger(s: TriggerSettings, io: LiveIo): Promise<Result> {
  const mode = modeFromKey(s.apiKey);
  if (mode === 'live') throw new UsageError('trigger runs in sandbox only: it creates patients, products, pharmacies and orders. Use a sandbox key (nk_sandbox_…).');
  if (mode === null) throw new UsageError('--api-key: a sandbox API key (nk_sandbox_…) is required.');
  const recipe = RECIPES[s.type];
  if (!recipe) {
    if (NOT_TRIGGERABLE[s.type]) throw new UsageError(`${s.type} is not made by the CLI. It takes ${NOT_TRIGGERABLE[s.type]}.`);
    throw new UsageError(`Unknown event type '${s.type}'. The types the product emits: ${EVENT_TYPES.join(', ')}.`);
  }
  const api = new FulfillmentRail(s.apiKey, { baseUrl: s.baseUrl });
  if (recipe.needsProvider) requireProviderCredentials(s.provider);
  // One sign-in per run, whichever step asks first.
  let signedIn: ReturnType<TriggerContext['provider']> | undefined;
  const provider = () =>
    (signedIn ??= (async () => {
      const session = await providerSession(s.baseUrl, s.provider, io.print);
      // The provider's own licences (GET /auth/me as them): API keys never read the team (users.manage is a person's scope).
      const [me, keyMe] = await Promise.all([session.get('/auth/me'), api.get('/auth/me')]);
      if (me.tenant?.id !== keyMe.tenant?.id) throw new UsageError(`${s.provider.email} belongs to another tenant than this API key.`);
      const states = me.user?.provider?.licensedStates ?? [];
      if (states.length === 0) throw new UsageError(`${s.provider.email} is not licensed in any state yet (ops attest licences), so cannot approve.`);
      return { session, state: pickState(states) };
    })());
  // A recipe that needs no approval still puts its patient where the provider given is licensed, so their review can approve it.
  const patientState = async () => {
    if (s.provider.email && s.provider.password) return (await provider()).state;
    io.print('The synthetic patient lives in CA: give --provider-email and --provider-password to choose a state that provider is licensed in.');
    return 'CA';
  };
  let made;
  try {
    made = await recipe.run({ api, provider, patientState });
  } catch (err) {
    if (err instanceof FulfillmentRailError) {
      throw new UsageError(`The API refused a step of the trigger: ${err.statusCode} ${err.code}: ${err.message} (request ${err.requestId})`);
    }
    throw err;
  }
  const event = await waitForEvent(api, s.type, made.subject, s.waitMs ?? 60_000, io.signal);
  const lines = Object.entries(made.ids).map(([name, id]) => `  ${name.padEnd(13)} ${id}`);
  if (!event) {
    return {
      value: { type: s.type, created: made.ids, event: null },
      human: [`Made:`, ...lines, `${s.type} has not appeared in the event log yet: is the server's worker running (RUN_WORKER)?`].join('\n'),
      code: 1,
    };
  }
  return { value: { type: s.type, created: made.ids, event }, human: [`Triggered ${s.type}: ${event.id}`, ...lines].join('\n') };
}
