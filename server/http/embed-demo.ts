import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '@/server/api/context';
import { demoEmbed } from '@/server/domain/embed/demo-key';
import { AppError } from '@/server/lib/errors';
import { WIDGET_VERSION } from './embed-widgets';

export const DEMO_PATH = '/embed/demo';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(title)}</title>
<style>
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#0f172a;background:#f8fafc}
header{background:#0f172a;color:#fff;padding:1rem 1.25rem}header p{margin:.25rem 0 0;color:#cbd5e1;font-size:.875rem}
main{max-width:44rem;margin:0 auto;padding:1.5rem 1rem}h1{margin:0;font-size:1.25rem}
nav a{color:#4338ca;margin-right:1rem}pre{white-space:pre-wrap;overflow-wrap:anywhere}#log{font:13px/1.4 ui-monospace,monospace;background:#fff;border:1px solid #cbd5e1;border-radius:6px;padding:.75rem;white-space:pre-wrap;overflow-wrap:anywhere;min-height:3rem}
.widget{background:#fff;border:1px solid #cbd5e1;border-radius:8px;margin:1.5rem 0;overflow:hidden}
</style></head><body>${body}</body></html>`;
}

/**
 * `/embed/demo?mode=flow|intake`: a stand-in for a clinic's own page with the widget on it, using the demo
 * clinic's sandbox key, and a log of the DOM events the widget dispatches (ids and verdicts, never answers).
 */
export async function serveEmbedDemo(req: IncomingMessage, res: ServerResponse, url: URL, services: Services): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    throw new AppError('validation_error', 'method_not_allowed', 405, `${req.method} is not allowed on ${DEMO_PATH}.`, undefined, { Allow: 'GET, HEAD' });
  }
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  const mode = url.searchParams.get('mode');
  const nav = `<nav aria-label="Demo modes"><a href="${DEMO_PATH}?mode=flow">Flow widget</a><a href="${DEMO_PATH}?mode=intake">Intake widget</a></nav>`;
  if (mode !== 'flow' && mode !== 'intake') {
    res.statusCode = 400;
    res.end(page('Embed demo', `<main><h1>Embed demo</h1><p>Choose a widget: the query parameter <code>mode</code> is <code>flow</code> or <code>intake</code>.</p>${nav}</main>`));
    return;
  }
  const demo = await demoEmbed(services.database.db, mode);
  if (!demo) {
    res.statusCode = 404;
    res.end(page('Embed demo', `<main><h1>No demo clinic here</h1><p>This server was started without the demo clinic (SEED_DEMO), so there is no sandbox key to show the ${mode} widget with.</p>${nav}</main>`));
    return;
  }
  const attrs = [`src="/embed/v${WIDGET_VERSION}/${mode}.js"`, `data-embed-key="${escape(demo.embedKey)}"`, 'data-campaign="demo"'];
  if (demo.questionnaireKey) attrs.push(`data-questionnaire="${escape(demo.questionnaireKey)}"`);
  const snippet = `<script ${attrs.join(' ')} async></script>`;
  res.statusCode = 200;
  res.end(
    page(
      `Demo Clinic – ${mode} widget`,
      `<header><h1>Demo Clinic</h1><p>A sample page with the ${mode} widget (sandbox: nothing is kept about the person).</p></header>
<main>${nav}
<p>The snippet on this page:</p><pre id="snippet">${escape(snippet)}</pre>
<div class="widget">${snippet}</div>
<h2>Events seen by this page</h2><div id="log" role="log" aria-live="polite"></div>
<script>
['ready','step','qualified','completed'].forEach(function (t) {
  document.addEventListener('fulfillmentrail:' + t, function (e) {
    document.getElementById('log').textContent += 'fulfillmentrail:' + t + ' ' + JSON.stringify(e.detail) + '\\n';
  });
});
</script></main>`,
    ),
  );
}
