import { mintWebhookSecret } from '@/server/domain/webhooks/secrets';
import { UsageError, type LiveIo, type Result } from '../cli-command';
import { eventFilter } from './event-filter';
import { followEventStream, StreamRefused } from './event-stream-client';
import { forwardEvent, type StreamedEvent } from './forward';

export interface ListenSettings {
  apiKey: string;
  baseUrl: string;
  forwardTo: string;
  events?: string;
  /** A `whsec_` secret to sign with (stable across runs); a fresh one is minted and printed otherwise. */
  secret?: string;
  timeoutMs?: number;
  /** The fetch that opens the stream (tests cut connections with it). */
  fetch?: typeof fetch;
}

const stamp = (d: Date) => d.toISOString().replace('T', ' ').slice(0, 19);

/** Checks the flags before anything connects: a usage error costs nothing. */
export function checkListenSettings(s: ListenSettings) {
  if (!/^(nk|rk)_(live|sandbox)_/.test(s.apiKey)) throw new UsageError('--api-key: an API key (nk_sandbox_…, nk_live_… or a restricted rk_… with events.read) is required; or set FR_API_KEY.');
  for (const [flag, url] of [['--forward-to', s.forwardTo], ['--base-url', s.baseUrl]]) {
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) throw new UsageError(`${flag}: not an http(s) URL: ${url}`);
  }
  if (s.secret !== undefined && !/^whsec_[A-Za-z0-9+/=]{24,}$/.test(s.secret)) throw new UsageError('--secret: expected whsec_ followed by base64');
  return eventFilter(s.events);
}

/**
 * `listen`: follows the event stream and forwards each event, signed with a local secret, to `forwardTo`; one
 * line per delivery. Runs until ^C (the signal), then says how many it forwarded.
 */
export async function listen(s: ListenSettings, io: LiveIo): Promise<Result> {
  const wanted = checkListenSettings(s);
  const secret = s.secret ?? mintWebhookSecret();
  const baseUrl = s.baseUrl.replace(/\/+$/, '');
  const mode = s.apiKey.includes('_live_') ? 'live' : 'sandbox';
  const say = (human: string, value: Record<string, unknown>) => io.print(io.json ? JSON.stringify(value) : human);
  say(`Ready! Forwarding ${mode} events${s.events ? ` matching ${s.events}` : ''} from ${baseUrl} to ${s.forwardTo}\nYour webhook signing secret is ${secret} (^C to quit)`, {
    ready: true,
    mode,
    secret,
    forwardTo: s.forwardTo,
  });
  let forwarded = 0;
  let failed = 0;
  try {
    await followEventStream({
      baseUrl,
      apiKey: s.apiKey,
      signal: io.signal,
      fetch: s.fetch,
      onNotice: (text) => say(`${stamp(new Date())}  ${text}`, { notice: text }),
      async onEvent(message) {
        let event: StreamedEvent;
        try {
          event = JSON.parse(message.data) as StreamedEvent;
        } catch {
          return;
        }
        if (!wanted(event.type)) return;
        const at = new Date();
        const r = await forwardEvent(s.forwardTo, secret, event, s.timeoutMs ?? 15_000);
        forwarded++;
        if (r.status === null || r.status < 200 || r.status >= 300) failed++;
        say(`${stamp(at)}  ${event.type.padEnd(24)} ${event.id}  --> ${r.status ?? `failed (${r.error})`}  ${r.durationMs} ms`, {
          time: at.toISOString(),
          type: event.type,
          id: event.id,
          status: r.status,
          error: r.error,
          durationMs: r.durationMs,
        });
      },
    });
  } catch (err) {
    if (err instanceof StreamRefused) return { value: { error: { message: err.message }, forwarded }, human: err.message, code: 2 };
    throw err;
  }
  return { value: { stopped: true, forwarded, failed }, human: `Stopped; ${forwarded} event(s) forwarded, ${failed} without a 2xx answer.` };
}
