import type { Bundle, BundleEntry, Resource } from '@medplum/fhirtypes';

/** A search's page: `_count` resources from `_offset`; what the query string asked, kept for the links. */
export interface Page {
  count: number;
  offset: number;
}

export const DEFAULT_COUNT = 50;
export const MAX_COUNT = 100;

/** `self` and, when more matched, `next`: the same search with `_offset` moved on by a page. */
function links(base: string, path: string, params: URLSearchParams, page: Page, total: number): Bundle['link'] {
  const at = (offset: number) => {
    const query = new URLSearchParams(params);
    query.delete('_offset');
    query.set('_count', String(page.count));
    if (offset > 0) query.set('_offset', String(offset));
    return `${base}${path}?${query}`;
  };
  const out: NonNullable<Bundle['link']> = [{ relation: 'self', url: at(page.offset) }];
  if (page.count > 0 && page.offset + page.count < total) out.push({ relation: 'next', url: at(page.offset + page.count) });
  if (page.count > 0 && page.offset > 0) out.push({ relation: 'previous', url: at(Math.max(0, page.offset - page.count)) });
  return out;
}

export interface SearchResult {
  matches: Resource[];
  /** Resources served beside the matches ($everything's practitioners and questionnaires). */
  included?: Resource[];
  total: number;
}

/** A `searchset` Bundle with `total`, the page's entries (`fullUrl` absolute) and its links. */
export function searchset(base: string, path: string, params: URLSearchParams, page: Page, result: SearchResult): Bundle {
  const entry = (mode: 'match' | 'include') => (resource: Resource): BundleEntry => ({ fullUrl: `${base}/${resource.resourceType}/${resource.id}`, resource, search: { mode } });
  const entries = [...result.matches.map(entry('match')), ...(result.included ?? []).map(entry('include'))];
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    total: result.total,
    link: links(base, path, params, page, result.total),
    entry: entries.length ? entries : undefined,
  };
}
