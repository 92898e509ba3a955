import { BenchError } from './lib';

/**
 * The floor of the lighthouse scenario: a page as the server rendered it, with no script at all and its
 * stylesheets inlined, so a bare node:http server can send it as one response. What Lighthouse scores on it is
 * what the first step of the flow costs a phone when nothing but its HTML and CSS is sent.
 *
 * Only what any HTML page has is touched (script elements, link elements, url()s): the way the page is rendered
 * may change without this changing.
 */
export async function buildFloorPage(baseUrl: string, pathname: string): Promise<string> {
  const pageUrl = new URL(pathname, baseUrl);
  const html = await fetchText(pageUrl);
  const withoutScripts = html.replace(/<script\b[^>]*>[\s\S]*?<\/script\s*>/gi, '');
  let out = '';
  let last = 0;
  for (const match of withoutScripts.matchAll(/<link\b[^>]*>/gi)) {
    out += withoutScripts.slice(last, match.index) + (await replaceLink(match[0], pageUrl));
    last = match.index + match[0].length;
  }
  out += withoutScripts.slice(last);
  // Whatever the page still points at (its icon, an image) stays on the real server: the floor server answers
  // every path with the page itself, which would be a wrong answer, not a cheaper one.
  return out.replace(/\b(href|src)="(\/[^/"][^"]*)"/g, (_all, attr: string, url: string) => `${attr}="${new URL(url, pageUrl).href}"`);
}

/** A stylesheet link becomes a <style> with its text; a script preload goes with the scripts; others stay. */
async function replaceLink(tag: string, pageUrl: URL): Promise<string> {
  const rel = attribute(tag, 'rel')?.toLowerCase().split(/\s+/) ?? [];
  const as = attribute(tag, 'as')?.toLowerCase();
  const href = attribute(tag, 'href');
  if (rel.includes('modulepreload') || (rel.includes('preload') && as === 'script')) return '';
  if (!rel.includes('stylesheet') || !href) return tag;
  const cssUrl = new URL(decodeEntities(href), pageUrl);
  const css = await fetchText(cssUrl);
  // url()s are relative to the stylesheet, not to the page the text now sits in.
  const absolute = css.replace(/url\(\s*(['"]?)(?!data:|#)([^'")]+)\1\s*\)/g, (_all, quote: string, url: string) => `url(${quote}${new URL(url, cssUrl).href}${quote})`);
  // A </style> inside the text would end the element early; CSS has no reason to hold one.
  return `<style>${absolute.replace(/<\/style/gi, '<\\/style')}</style>`;
}

function attribute(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
}

const decodeEntities = (s: string) => s.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'");

async function fetchText(url: URL): Promise<string> {
  const res = await fetch(url);
  const text = await res.text();
  if (res.status !== 200) throw new BenchError(`lighthouse floor: ${url.pathname} answered ${res.status}: ${text.slice(0, 200)}`);
  return text;
}
