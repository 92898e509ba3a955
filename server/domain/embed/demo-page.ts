import type { Queryable } from '@/server/db/types';
import { demoEmbed, findEmbedKey } from './demo-key';
import { WIDGET_VERSION } from './widget-version';
import { escapeHtml } from '@/server/lib/html';

export const DEMO_PATH = '/embed/demo';


function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>
<style>
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#0f172a;background:#f8fafc}
header{background:#0f172a;color:#fff;padding:1rem 1.25rem}header p{margin:.25rem 0 0;color:#cbd5e1;font-size:.875rem}
main{max-width:44rem;margin:0 auto;padding:1.5rem 1rem}h1{margin:0;font-size:1.25rem}
nav a{color:#4338ca;margin-right:1rem}pre{white-space:pre-wrap;overflow-wrap:anywhere}#log{font:13px/1.4 ui-monospace,monospace;background:#fff;border:1px solid #cbd5e1;border-radius:6px;padding:.75rem;white-space:pre-wrap;overflow-wrap:anywhere;min-height:3rem}
.widget{background:#fff;border:1px solid #cbd5e1;border-radius:8px;margin:1.5rem 0;overflow:hidden}
</style></head><body>${body}</body></html>`;
}

// An embed key (`emb_` and letters and digits) and a questionnaire key, as the widget's attributes take them.
const EMBED_KEY = /^emb_[A-Za-z0-9]{16,64}$/;
const QUESTIONNAIRE_KEY = /^[a-z0-9][a-z0-9_-]{0,99}$/;

type Mode = 'flow' | 'intake';

const nav = `<nav aria-label="Demo modes"><a href="${DEMO_PATH}?mode=flow">Flow widget</a><a href="${DEMO_PATH}?mode=intake">Intake widget</a></nav>`;

/** How to get a key to try the widget with, and a form that opens this page with one. */
function howToGetAKey(mode: Mode, note: string): string {
  return `<main><h1>Try the ${mode} widget</h1><p>${note}</p>
<p>To see the widget here, either start the server on an empty database with <code>SEED_DEMO=true</code> (the default with the
embedded database), which creates a demo clinic with a sandbox key, or create a <strong>sandbox</strong> embed key in the console
(<a href="/embed-keys">Embed keys</a>) and enter it below.</p>
<form method="get" action="${DEMO_PATH}"><input type="hidden" name="mode" value="${mode}">
<p><label for="k">Sandbox embed key</label><br><input id="k" name="k" required pattern="emb_[A-Za-z0-9]{16,64}" size="34" placeholder="emb_…"></p>
${mode === 'intake' ? '<p><label for="q">Questionnaire key (optional)</label><br><input id="q" name="q" pattern="[a-z0-9][a-z0-9_\\-]{0,99}" size="34"></p>' : ''}
<p><button type="submit">Show the widget</button></p></form>${nav}</main>`;
}

/** The widget for `embedKey`, on a stand-in for a clinic's page, with a log of the DOM events it dispatches. */
function widgetPage(mode: Mode, embedKey: string, questionnaireKey: string | null, clinic: string): string {
  const attrs = [`src="/embed/v${WIDGET_VERSION}/${mode}.js"`, `data-embed-key="${escapeHtml(embedKey)}"`, 'data-campaign="demo"'];
  if (questionnaireKey) attrs.push(`data-questionnaire="${escapeHtml(questionnaireKey)}"`);
  const snippet = `<script ${attrs.join(' ')} async></script>`;
  return page(
    `${clinic} – ${mode} widget`,
    `<header><h1>${escapeHtml(clinic)}</h1><p>A sample page with the ${mode} widget (sandbox: nothing is kept about the person).</p></header>
<main>${nav}
<p>The snippet on this page:</p><pre id="snippet">${escapeHtml(snippet)}</pre>
<div class="widget">${snippet}</div>
<h2>Events seen by this page</h2><div id="log" role="log" aria-live="polite"></div>
<script>
['ready','step','qualified','completed'].forEach(function (t) {
  document.addEventListener('fulfillmentrail:' + t, function (e) {
    document.getElementById('log').textContent += 'fulfillmentrail:' + t + ' ' + JSON.stringify(e.detail) + '\\n';
  });
});
</script></main>`,
  );
}

/**
 * `/embed/demo?mode=flow|intake`: a stand-in for a clinic's own page with the widget on it, using the demo
 * clinic's sandbox key, or the sandbox key given as `k` (and for intake the questionnaire `q`). Without a demo
 * clinic and without `k` it explains how to get a key; it is never a bare 404 (the spec lists the path). A live
 * key is not shown here: this page is for trying the widget, and live answers are a real person's.
 */
export async function demoPage(db: Queryable, query: URLSearchParams): Promise<{ status: number; html: string }> {
  const send = (status: number, html: string) => ({ status, html });
  const mode = query.get('mode');
  if (mode === null) return send(200, page('Embed demo', `<main><h1>Embed demo</h1><p>Choose a widget to try.</p>${nav}</main>`));
  if (mode !== 'flow' && mode !== 'intake') {
    return send(400, page('Embed demo', `<main><h1>Embed demo</h1><p>Choose a widget: the query parameter <code>mode</code> is <code>flow</code> or <code>intake</code>.</p>${nav}</main>`));
  }
  const k = query.get('k');
  const q = query.get('q') || null;
  if (k !== null) {
    if (!EMBED_KEY.test(k) || (q !== null && !QUESTIONNAIRE_KEY.test(q))) {
      return send(400, page('Embed demo', howToGetAKey(mode, 'That is not an embed key (<code>emb_</code> and letters and digits) or a questionnaire key.')));
    }
    const key = await findEmbedKey(db, k);
    if (key && key.livemode) return send(200, page('Embed demo', howToGetAKey(mode, 'That is a live key. This page shows sandbox keys only: answers given to a live key belong to a real person.')));
    // An unknown or revoked key is shown anyway: the widget then says it cannot load, as it would on a clinic's page.
    return send(200, widgetPage(mode, k, mode === 'intake' ? q : null, 'Your clinic'));
  }
  const demo = await demoEmbed(db, mode);
  if (!demo) return send(200, page('Embed demo', howToGetAKey(mode, 'This server has no demo clinic (it was started without <code>SEED_DEMO</code>, or the demo key was revoked), so there is no sandbox key to show the widget with.')));
  return send(200, widgetPage(mode, demo.embedKey, demo.questionnaireKey, 'Demo Clinic'));
}
