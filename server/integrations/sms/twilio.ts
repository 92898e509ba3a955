import twilio from 'twilio';
import { SmsRefused, type SmsSender } from './port';

export interface TwilioOptions {
  accountSid: string;
  authToken: string;
  /** The sending number (E.164) or messaging service sid (MG…). */
  from: string;
  /** A Twilio-compatible API base (a local fake in tests, a proxy) instead of https://api.twilio.com. */
  apiUrl?: string;
  timeoutMs?: number;
}

const TWILIO_API = 'https://api.twilio.com';

/**
 * The SDK's HTTP client, pointed at another base URL: the SDK's documented way to route its requests (a custom
 * `httpClient`). Only the origin changes; path, query, auth and body are the SDK's own.
 */
function clientFor(apiUrl: string | undefined, timeoutMs: number) {
  const client = new twilio.RequestClient({ timeout: timeoutMs });
  if (!apiUrl) return client;
  const base = apiUrl.replace(/\/+$/, '');
  const request = client.request.bind(client);
  client.request = (opts) => request({ ...opts, uri: opts.uri.startsWith(TWILIO_API) ? base + opts.uri.slice(TWILIO_API.length) : opts.uri });
  return client;
}

/**
 * SMS_PROVIDER=twilio: `POST /2010-04-01/Accounts/{sid}/Messages.json` through the official SDK. A 4xx answer
 * (but 429) is Twilio refusing this message: `SmsRefused`. Errors never carry Twilio's own message, which may
 * quote the number.
 */
export function createTwilioSms(opts: TwilioOptions): SmsSender {
  const client = twilio(opts.accountSid, opts.authToken, { httpClient: clientFor(opts.apiUrl, opts.timeoutMs ?? 15_000), autoRetry: false });
  const from = opts.from.startsWith('MG') ? { messagingServiceSid: opts.from } : { from: opts.from };
  return {
    transport: 'twilio',
    async send(m) {
      try {
        await client.messages.create({ to: m.to, body: m.text, ...from });
      } catch (err) {
        const status = (err as { status?: unknown }).status;
        const code = (err as { code?: unknown }).code;
        if (typeof status === 'number') {
          const what = `Twilio answered HTTP ${status}${typeof code === 'number' ? ` (error ${code})` : ''}`;
          if (status >= 400 && status < 500 && status !== 429) throw new SmsRefused(`${what}: the message was refused`);
          throw new Error(what);
        }
        throw new Error(`Twilio could not be reached${typeof code === 'string' && /^[A-Z_]+$/.test(code) ? ` (${code})` : ''}`);
      }
    },
  };
}
