import { directFetch, reportLines, runProtocolChecks, startCallbackListener } from '@/server/integrations/pharmacies/protocol-check';
import { PROTOCOL_TIMINGS } from '@/server/integrations/pharmacies/protocol/timings';
import { Live, UsageError, type Command, type Options } from './cli-command';

const SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

function wholeNumber(o: Options, flag: string, fallback: number, range: [number, number], what: string): number {
  const v = o[flag];
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || n < range[0] || n > range[1]) throw new UsageError(`--${flag} must be ${what} from ${range[0]} to ${range[1]}, not '${v}'`);
  return n;
}

const HELP = `Runs every check of the pharmacy protocol (docs/pharmacy-protocol.md) against your implementation, as
Fulfillment Rail's http adapter would call it, and prints one line per check with what was expected and what
was seen. Exit code 0 only when every check passes (1 when one fails, 2 for a usage error).

It creates one test order (livemode false: never fill it) of a synthetic patient for the first item your
catalog has in stock, repeats it with the same Idempotency-Key, looks it up, cancels it, and waits for its
signed status callbacks on a local listener whose address is the order's callbackUrl. When your pharmacy runs
elsewhere, expose the listener (--callback-port) and give its public address with --callback-url.

  --base-url          your API's base URL, as the clinic enters it (e.g. http://localhost:4010)
  --secret            the connection's whsec_ secret (FR_PHARMACY_SECRET)
  --time-limit-ms     the longest an answer may take (default ${PROTOCOL_TIMINGS.defaultTimeoutMs}, the adapter's default timeout)
  --callback-wait-ms  how long to wait for callbacks (default 10000)
  --callback-host     where the listener listens (default 127.0.0.1); --callback-port its port (default: any free one)
  --callback-url      the listener's address as your pharmacy reaches it (default http://localhost:<port>)`;

/** `pharmacy verify`: the protocol checker (DESIGN decision 43), for a pharmacy's engineers; opens no database. */
export const PHARMACY_COMMANDS: Record<string, Command> = {
  pharmacy: {
    summary: 'Check a pharmacy implementation against the pharmacy protocol: one line per check; exit 0 only when all pass',
    usage: 'verify --base-url <url> --secret whsec_… [--time-limit-ms N] [--callback-wait-ms N] [--callback-port N] [--callback-url <url>]',
    help: HELP,
    positionals: 1,
    options: {
      'base-url': { type: 'string' },
      secret: { type: 'string' },
      'time-limit-ms': { type: 'string' },
      'callback-wait-ms': { type: 'string' },
      'callback-host': { type: 'string' },
      'callback-port': { type: 'string' },
      'callback-url': { type: 'string' },
    },
    prepare(o, [sub], env) {
      if (sub !== 'verify') throw new UsageError(sub ? `Unknown pharmacy command '${sub}': the one there is, is 'verify'.` : 'Say what to do: pharmacy verify --base-url … --secret whsec_…');
      const baseUrl = o['base-url'];
      if (!baseUrl || !URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) throw new UsageError('--base-url is required: your API\'s http(s) base URL, e.g. http://localhost:4010');
      const secret = (o.secret ?? env.FR_PHARMACY_SECRET ?? '').trim();
      if (!SECRET.test(secret)) throw new UsageError('--secret is required (or FR_PHARMACY_SECRET): the connection\'s secret, whsec_ followed by base64.');
      const callbackUrl = o['callback-url'];
      if (callbackUrl !== undefined && !URL.canParse(callbackUrl)) throw new UsageError(`--callback-url: not a URL: ${callbackUrl}`);
      const timeLimitMs = wholeNumber(o, 'time-limit-ms', PROTOCOL_TIMINGS.defaultTimeoutMs, [1, 120_000], 'a whole number of milliseconds');
      const callbackWaitMs = wholeNumber(o, 'callback-wait-ms', 10_000, [1, 600_000], 'a whole number of milliseconds');
      const port = wholeNumber(o, 'callback-port', 0, [0, 65_535], 'a port number');
      return new Live(async () => {
        const listener = await startCallbackListener({ host: o['callback-host'], port, publicUrl: callbackUrl });
        try {
          const report = await runProtocolChecks({ baseUrl, secret, fetch: directFetch, callbacks: listener.receiver, timeLimitMs, callbackWaitMs });
          return { value: report, human: reportLines(report).join('\n'), code: report.passed ? 0 : 1 };
        } finally {
          await listener.close();
        }
      });
    },
  },
};
