import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

/** A message the fake received, as Twilio reads the SDK's form body. */
export interface FakeTwilioMessage {
  accountSid: string;
  authorization: string | undefined;
  to: string;
  from: string | null;
  messagingServiceSid: string | null;
  body: string;
}

export interface FakeTwilio {
  /** The base for TWILIO_API_URL. */
  url: string;
  /** Messages Twilio accepted (201), oldest first. */
  messages: FakeTwilioMessage[];
  /** Every request, accepted or not. */
  requests: number;
  /** The statuses to answer the next sends with, in order (then 201): e.g. [400] refuses one, [503] fails one. */
  failNext(...statuses: number[]): void;
  close(): Promise<void>;
}

const PATH = /^\/2010-04-01\/Accounts\/(AC[0-9a-fA-F]{32})\/Messages\.json$/;

/**
 * A local stand-in for the one Twilio endpoint the SMS port uses, `POST /2010-04-01/Accounts/{sid}/Messages.json`
 * (form-encoded `To`, `From` or `MessagingServiceSid`, `Body`; basic auth with the account SID and auth token),
 * answering as Twilio does: 201 with the message resource, or an error object `{code, message, status}`.
 */
export async function startFakeTwilio(): Promise<FakeTwilio> {
  const messages: FakeTwilioMessage[] = [];
  const failures: number[] = [];
  let requests = 0;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      requests++;
      const m = PATH.exec(req.url ?? '');
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST' || !m) return send(404, { code: 20404, message: 'The requested resource was not found', status: 404 });
      const failure = failures.shift();
      if (failure) return send(failure, { code: failure === 400 ? 21211 : 20500, message: failure === 400 ? "The 'To' number is not a valid phone number." : 'Internal error', status: failure });
      const form = new URLSearchParams(raw);
      const message = {
        accountSid: m[1],
        authorization: req.headers.authorization,
        to: form.get('To') ?? '',
        from: form.get('From'),
        messagingServiceSid: form.get('MessagingServiceSid'),
        body: form.get('Body') ?? '',
      };
      messages.push(message);
      send(201, {
        sid: `SM${randomBytes(16).toString('hex')}`,
        account_sid: m[1],
        to: message.to,
        from: message.from,
        body: message.body,
        status: 'queued',
        num_segments: '1',
        direction: 'outbound-api',
        api_version: '2010-04-01',
        date_created: new Date().toUTCString(),
        uri: `/2010-04-01/Accounts/${m[1]}/Messages/SM0.json`,
      });
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    messages,
    get requests() {
      return requests;
    },
    failNext: (...statuses) => failures.push(...statuses),
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

export const TWILIO_SID = `AC${'a1'.repeat(16)}`;
export const TWILIO_TOKEN = 'test_auth_token_0123456789abcdef';
export const TWILIO_FROM = '+15005550006';
