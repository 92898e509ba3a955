/** One page as the API returns it: a bare array (orders, patients, …) or a list object (events: `{data, has_more}`). */
export type Page<T> = T[] | { data: T[]; has_more: boolean };

const itemsOf = <T>(page: Page<T>): T[] => (Array.isArray(page) ? page : page.data);

/**
 * Every item of a cursor-paginated list (SPEC "Endpoints": pass the last id received as `starting_after`).
 * A list object ends at `has_more: false`; a bare array ends at a page shorter than `limit` when one was asked
 * for, else at an empty page.
 */
export async function* paginate<T extends { id: string }>(fetchPage: (startingAfter: string | undefined) => Promise<Page<T>>, limit?: number): AsyncGenerator<T> {
  let after: string | undefined;
  for (;;) {
    const page = await fetchPage(after);
    const items = itemsOf(page);
    yield* items;
    if (items.length === 0) return;
    if (!Array.isArray(page) && !page.has_more) return;
    if (Array.isArray(page) && limit !== undefined && items.length < limit) return;
    after = items[items.length - 1].id;
  }
}

/**
 * What a `list()` returns, as Stripe's SDK does: awaited, the first page; iterated with `for await`, every item
 * across pages, fetched as the loop goes.
 */
export class ListPromise<T extends { id: string }, P extends Page<T> = Page<T>> implements PromiseLike<P>, AsyncIterable<T> {
  constructor(
    private readonly fetchPage: (startingAfter: string | undefined) => Promise<P>,
    private readonly limit?: number,
  ) {}

  then<A = P, B = never>(onfulfilled?: ((value: P) => A | PromiseLike<A>) | null, onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null): PromiseLike<A | B> {
    return this.fetchPage(undefined).then(onfulfilled, onrejected);
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return paginate<T>(this.fetchPage, this.limit)[Symbol.asyncIterator]();
  }

  /** Every item, in one array (mind the size of the list). */
  async toArray(max = Infinity): Promise<T[]> {
    const out: T[] = [];
    for await (const item of this) {
      if (out.length >= max) break;
      out.push(item);
    }
    return out;
  }
}
