import { filterQuery, type Filter } from '../filters.js';
import type { CallOptions, Ref } from '../types.js';
import type { Call } from '../call.js';

/** `name`, `name:asc` or `name:desc`, and `:ci` after a text attribute to ignore the case of ASCII letters; several sort keys in order. */
export type SortKey<Field extends string> = Field | `${Field}:asc` | `${Field}:desc` | `${Field}:ci` | `${Field}:asc:ci` | `${Field}:desc:ci`;

export interface ListOptions<FilterField extends string, SortField extends string> extends CallOptions {
  filter?: Filter<FilterField>;
  sortBy?: SortKey<SortField> | readonly SortKey<SortField>[];
  /** Items per page, 1–100 (20). */
  limit?: number;
  /** Items to skip (0). */
  offset?: number;
}

/** The types of one resource's list / create / show / update / destroy. */
export interface CrudTypes {
  item: unknown;
  created: unknown;
  collection: unknown;
  create: unknown;
  update: unknown;
  filter: string;
  /** The sort keys, where the list sorts on other attributes than the item's. */
  sort?: string;
}

type SortFieldOf<T extends CrudTypes> = T extends { sort: infer Sort extends string } ? Sort : keyof T['item'] & string;
type ListOptionsOf<T extends CrudTypes> = ListOptions<T['filter'], SortFieldOf<T>>;

export interface CrudResource<T extends CrudTypes> {
  /** One page and `count`, the number of matches before paging. */
  list(options?: ListOptionsOf<T>): Promise<T['collection']>;
  /** Every match, page after page (`limit` items a request, 100 by default). */
  listAll(options?: ListOptionsOf<T>): AsyncIterableIterator<T['item']>;
  create(body: T['create'], options?: CallOptions): Promise<T['created']>;
  get(ref: Ref, options?: CallOptions): Promise<T['item']>;
  /** A partial update: absent fields stay, `null` clears an optional one. */
  update(ref: Ref, body: T['update'], options?: CallOptions): Promise<T['item']>;
  delete(ref: Ref, options?: CallOptions): Promise<void>;
}

/** The query of a list: paging, sorting and filters. */
export function listQuery(options: ListOptions<string, string>): Record<string, unknown> {
  const { filter, sortBy, limit, offset } = options;
  return {
    ...filterQuery(filter),
    ...(sortBy === undefined ? {} : { sort_by: typeof sortBy === 'string' ? sortBy : sortBy.join('|') }),
    ...(limit === undefined ? {} : { limit: String(limit) }),
    ...(offset === undefined ? {} : { offset: String(offset) }),
  };
}

/** Pages through a list until `count` items were seen or a page comes back empty. */
export async function* pages<Item>(
  list: (options: ListOptions<string, string>) => Promise<unknown>,
  key: string,
  options: ListOptions<string, string>,
): AsyncIterableIterator<Item> {
  let offset = options.offset ?? 0;
  for (;;) {
    const page = (await list({ ...options, offset, limit: options.limit ?? 100 })) as { count: number } & Record<string, Item[]>;
    const items = page[key] ?? [];
    yield* items;
    offset += items.length;
    if (items.length === 0 || offset >= page.count) return;
  }
}

/** The five operations of a collection at `path` whose items are at `path/{param}`. */
export function crud<T extends CrudTypes>(call: Call, path: string, param: string, key: string): CrudResource<T> {
  const item = `${path}/{${param}}`;
  const at = (ref: Ref) => ({ [param]: String(ref) });
  const list = (options: ListOptions<string, string> = {}) => call('GET', path, { query: listQuery(options), signal: options.signal });
  return {
    list,
    listAll: (options = {}) => pages(list, key, options),
    create: (body, options = {}) => call('POST', path, { body, signal: options.signal }),
    get: (ref, options = {}) => call('GET', item, { path: at(ref), signal: options.signal }),
    update: (ref, body, options = {}) => call('PUT', item, { path: at(ref), body, signal: options.signal }),
    delete: async (ref, options = {}) => {
      await call('DELETE', item, { path: at(ref), signal: options.signal });
    },
  } as CrudResource<T>;
}
