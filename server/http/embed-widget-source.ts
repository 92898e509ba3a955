/**
 * The widget scripts (DESIGN decision 25): small, dependency-free, ES5-safe. `<script src=…/embed/v1/flow.js
 * data-embed-key=emb_… async>` puts an iframe of `/embed/frame` after itself (or into `data-target`), sizes it
 * from the frame's messages and re-dispatches the frame's progress as `fulfillmentrail:*` DOM events. A message
 * counts only when it comes from this service's origin and from this very iframe; its detail is rebuilt from a
 * list of id fields, so nothing else a frame might post (never answers) reaches the host page.
 */

export const WIDGET_EVENTS = ['ready', 'step', 'qualified', 'completed'] as const;
/** What an event's detail may carry: ids, positions and the verdict. */
export const WIDGET_DETAIL_FIELDS = ['mode', 'embedKey', 'flowId', 'versionId', 'sessionId', 'stepId', 'stepIndex', 'stepCount', 'verdict', 'submissionId', 'questionnaireKey'] as const;

export type WidgetMode = 'flow' | 'intake';

export function widgetSource(mode: WidgetMode, version: string): string {
  return `/*! Fulfillment Rail ${mode} widget v${version} */
(function () {
  'use strict';
  var script = document.currentScript;
  if (!script || !script.src) return;
  var service = new URL(script.src, location.href).origin;
  var data = script.dataset || {};
  var key = data.embedKey;
  if (!key) { if (window.console) console.error('Fulfillment Rail: data-embed-key is missing on the widget script.'); return; }
  var params = new URLSearchParams();
  params.set('k', key);
  params.set('t', ${JSON.stringify(mode)});
  var extra = { q: data.questionnaire || data.q, theme: data.theme, shop: data.shop, cid: data.campaign || data.cid };
  for (var name in extra) if (extra[name]) params.set(name, String(extra[name]).slice(0, 200));
  var container = data.target ? document.querySelector(data.target) : null;
  if (!container) {
    container = document.createElement('div');
    script.parentNode.insertBefore(container, script.nextSibling);
  }
  container.setAttribute('data-fulfillmentrail', ${JSON.stringify(mode)});
  var frame = document.createElement('iframe');
  frame.src = service + '/embed/frame?' + params.toString();
  frame.title = data.title || ${JSON.stringify(mode === 'flow' ? 'Check if treatment is right for you' : 'Health questionnaire')};
  // The frame checks which page holds it from the Referer: the origin, never the host page's path.
  frame.referrerPolicy = 'origin';
  frame.style.cssText = 'display:block;width:100%;max-width:100%;border:0;height:' + (parseInt(data.height, 10) || 560) + 'px;';
  container.appendChild(frame);

  var EVENTS = ${JSON.stringify(Object.fromEntries(WIDGET_EVENTS.map((e) => [e, true])))};
  var FIELDS = ${JSON.stringify(WIDGET_DETAIL_FIELDS)};
  window.addEventListener('message', function (e) {
    if (e.origin !== service || e.source !== frame.contentWindow) return;
    var m = e.data;
    if (!m || typeof m !== 'object' || m.source !== 'fulfillmentrail') return;
    if (m.type === 'resize') {
      var h = Number(m.height);
      if (h > 0 && h < 100000) frame.style.height = Math.ceil(h) + 'px';
      return;
    }
    if (!EVENTS[m.type]) return;
    var detail = {};
    var given = m.detail && typeof m.detail === 'object' ? m.detail : {};
    for (var i = 0; i < FIELDS.length; i++) {
      var v = given[FIELDS[i]];
      if (typeof v === 'string' || typeof v === 'number') detail[FIELDS[i]] = v;
    }
    var evt;
    try { evt = new CustomEvent('fulfillmentrail:' + m.type, { bubbles: true, detail: detail }); }
    catch (_) { evt = document.createEvent('CustomEvent'); evt.initCustomEvent('fulfillmentrail:' + m.type, true, false, detail); }
    container.dispatchEvent(evt);
  });
})();
`;
}
