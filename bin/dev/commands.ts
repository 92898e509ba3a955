import { Live, UsageError, type Command, type Options } from '../cli-command';
import { listen } from './listen';
import { trigger, TRIGGER_HELP } from './trigger';

const DEFAULT_BASE_URL = 'http://localhost:3000';

/** The key from `--api-key`, else FR_API_KEY (as Stripe's CLI reads STRIPE_API_KEY). */
function apiKey(o: Options, env: Record<string, string | undefined>): string {
  const key = o['api-key'] ?? env.FR_API_KEY;
  if (!key) throw new UsageError('--api-key is required (or set FR_API_KEY): the sandbox key `npm start` printed, for one.');
  return key.trim();
}
const baseUrl = (o: Options, env: Record<string, string | undefined>) => o['base-url'] ?? env.FR_BASE_URL ?? DEFAULT_BASE_URL;

/** Developer commands: they talk to a running server over its API and open no database. */
export const DEV_COMMANDS: Record<string, Command> = {
  listen: {
    summary: 'Forward the event stream to a local URL as signed webhooks (one line per delivery; ^C to stop)',
    usage: '--forward-to <url> [--api-key <key>] [--events order.*,flow.*] [--base-url <url>] [--secret whsec_…]',
    options: { 'api-key': { type: 'string' }, 'forward-to': { type: 'string' }, events: { type: 'string' }, 'base-url': { type: 'string' }, secret: { type: 'string' } },
    prepare(o, _positionals, env) {
      const forwardTo = o['forward-to'];
      if (!forwardTo) throw new UsageError('--forward-to is required: the URL of your webhook handler, e.g. http://localhost:4242/webhooks');
      const settings = { apiKey: apiKey(o, env), baseUrl: baseUrl(o, env), forwardTo, events: o.events, secret: o.secret ?? env.FR_LISTEN_SECRET };
      return new Live((io) => listen(settings, io));
    },
  },
  trigger: {
    summary: 'Make an event happen in sandbox through the public API, with the real objects behind it; prints their ids',
    usage: '<event type> [--api-key <key>] [--base-url <url>] [--provider-email <e-mail> --provider-password <password> [--provider-totp-secret <base32>]]',
    help: TRIGGER_HELP,
    positionals: 1,
    options: {
      'api-key': { type: 'string' },
      'base-url': { type: 'string' },
      'provider-email': { type: 'string' },
      'provider-password': { type: 'string' },
      'provider-totp-secret': { type: 'string' },
    },
    prepare(o, [type], env) {
      if (!type) throw new UsageError('Name the event to trigger, e.g. trigger order.shipped (--help lists them).');
      const provider = {
        email: o['provider-email'] ?? env.FR_PROVIDER_EMAIL,
        password: o['provider-password'] ?? env.FR_PROVIDER_PASSWORD,
        totpSecret: o['provider-totp-secret'] ?? env.FR_PROVIDER_TOTP_SECRET,
      };
      const settings = { type, apiKey: apiKey(o, env), baseUrl: baseUrl(o, env), provider };
      return new Live((io) => trigger(settings, io));
    },
  },
};
