import type { FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import type { HttpMethod, MediaType, PathsWithMethod, RequiredKeysOf } from 'openapi-typescript-helpers';
import type { components, paths } from './generated/openapi.js';

export type { components, paths, operations } from './generated/openapi.js';
export type Schemas = components['schemas'];

export type PathFor<M extends HttpMethod> = PathsWithMethod<paths, M>;
export type InitFor<M extends HttpMethod, P extends PathFor<M>> = MaybeOptionalInit<paths[P], M>;
/** The init argument, optional exactly when nothing in it is required (as in openapi-fetch). */
export type InitArgs<I> = RequiredKeysOf<I> extends never ? [init?: I] : [init: I];
/** The success body of an operation. */
export type DataOf<M extends HttpMethod, P extends PathFor<M>, I = object> =
  paths[P][M] extends infer O extends Record<string | number, unknown> ? NonNullable<FetchResponse<O, I, MediaType>['data']> : never;
/** The JSON body an operation takes. */
export type BodyOf<M extends HttpMethod, P extends PathFor<M>> = NonNullable<InitFor<M, P>> extends { body?: infer B } ? NonNullable<B> : never;
/** The query parameters an operation takes. */
export type QueryOf<M extends HttpMethod, P extends PathFor<M>> = NonNullable<InitFor<M, P>> extends { params?: { query?: infer Q } } ? NonNullable<Q> : never;

type Query<P extends PathFor<'get'>> = paths[P]['get'] extends { parameters: { query?: infer Q } } ? Q : never;
/** GET operations with a `starting_after` cursor: the ones `paginate` walks. */
export type ListPath = {
  [P in PathFor<'get'>]: [NonNullable<Query<P>>] extends [never] ? never : 'starting_after' extends keyof NonNullable<Query<P>> ? P : never;
}[PathFor<'get'>];
type ListData<P extends ListPath> = DataOf<'get', P>;
/** The item type of a list operation (an array's element, or a list object's `data` element). */
export type ItemOf<P extends ListPath> = ListData<P> extends (infer T)[] ? T : ListData<P> extends { data: (infer T)[] } ? T : never;
