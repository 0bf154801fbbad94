import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db } from './client.js';
import { fitting } from './budget.js';
import type { Item } from './item.js';
import type { Page, PageQuery } from './entity.js';

export type { Page, PageQuery } from './entity.js';
import { type CursorScope, countedPageAt, foreignCursor, issueCursor, nextCountedCursor, positionOf } from './cursor.js';
import { tableName } from './table.js';

/**
 * Every item of a key condition, following LastEvaluatedKey. Lists in this
 * service are per guild and bounded by the module's limits, so reading the
 * whole partition range is what `total` needs anyway.
 *
 * @deprecated use `Entity.query` (the entity reads its own items, parsed).
 */
export async function queryAll(input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>): Promise<Item[]> {
  const items: Item[] = [];
  let start: Record<string, NativeAttributeValue> | undefined;
  do {
    const out = await db().send(new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey: start }));
    items.push(...((out.Items as Item[]) ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Where a page starts (behaviour §3.6, §15): its number, how many records come before it, and the key it reads after (null: from its number). */
export interface PageStart {
  page: number;
  before: number;
  after: string | null;
}

/** Where the page a request asks for starts: page `page`, or where the signed `cursor` of the page before says.  *
 * @deprecated use `Entity.page`, which finds the start itself.
 */
export async function pageStart(scope: CursorScope, query: PageQuery): Promise<PageStart> {
  const from = await countedPageAt(scope, query.cursor, query.page_size);
  const page = from?.page ?? query.page;
  return { page, before: from?.before ?? (page - 1) * query.page_size, after: from?.after ?? null };
}

/**
 * A page of `records` as answered, from `start`: the head of them that
 * fits in LIST_BYTES (a page ends early rather than pass 1 MiB, behaviour
 * §15), the page fields, and `next_cursor` (null once nothing follows),
 * which continues after the key `lastKept` names for the records kept.
 *
 * @deprecated use `Entity.page`, which fits the page in LIST_BYTES itself.
 */
export async function fittedPage<T>(
  scope: CursorScope,
  start: PageStart,
  pageSize: number,
  records: readonly T[],
  total: number,
  lastKept: (kept: number) => string | null,
): Promise<Page<T>> {
  const items = fitting(records);
  const through = start.before + items.length;
  return {
    items,
    page: start.page,
    page_size: pageSize,
    total,
    next_cursor: await nextCountedCursor(scope, start.page, through, total, lastKept(items.length)),
  };
}

/** One page of a list read whole, its records as answered, newest first (behaviour §3.6, §15); positions are its keys. */
export async function pageWithin<T>(all: readonly T[], query: PageQuery, scope: CursorScope): Promise<Page<T>> {
  const start = await pageStart(scope, query);
  return fittedPage(scope, start, query.page_size, all.slice(start.before, start.before + query.page_size), all.length, () => '');
}

type QueryInput = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit' | 'Select'>;

/** How many items a key condition holds: a COUNT query a page at a time (no item comes back).  *
 * @deprecated use `Entity.count`.
 */
export async function countAll(input: QueryInput): Promise<number> {
  let count = 0;
  let start: Record<string, NativeAttributeValue> | undefined;
  do {
    const { ProjectionExpression: _p, ...rest } = input;
    const out = await db().send(new QueryCommand({ ...rest, TableName: tableName(), Select: 'COUNT', ExclusiveStartKey: start }));
    count += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return count;
}

/**
 * One page of a key condition read by key (behaviour §3.6 and §15): a Query
 * of `pageSize` items from `start` (the last key of the page before, as a
 * cursor carries it). Without a start, page `page` is found by reading the
 * keys of the pages before it (`keys`, the key attributes to project), never
 * their items. `lastKey` is where the next page starts, or null at the end.
 *
 * @deprecated use `Entity.page` (one page model and cursor format).
 */
export async function queryPage(
  input: QueryInput,
  keys: string,
  page: number,
  pageSize: number,
  start: Item | null,
): Promise<{ items: Item[]; lastKey: Item | null }> {
  let from: Item | undefined = start ?? undefined;
  for (let skip = start ? 0 : (page - 1) * pageSize; skip > 0; ) {
    const out = await db().send(new QueryCommand({ ...input, ProjectionExpression: keys, TableName: tableName(), Limit: skip, ExclusiveStartKey: from }));
    skip -= out.Count ?? 0;
    from = out.LastEvaluatedKey;
    if (!from) return { items: [], lastKey: null };
  }
  const items: Item[] = [];
  while (items.length < pageSize) {
    const out = await db().send(new QueryCommand({ ...input, TableName: tableName(), Limit: pageSize - items.length, ExclusiveStartKey: from }));
    items.push(...((out.Items as Item[]) ?? []));
    from = out.LastEvaluatedKey;
    if (!from) return { items, lastKey: null };
  }
  return { items, lastKey: from ?? null };
}

/**
 * A list read a page at a time by key (behaviour §15): one Query of at most
 * `limit` items from where the signed cursor says, never the whole list, so
 * an answer stays small however long the list grows. The cursor's position
 * is the page's last key; it is bound to the list's scope (`cursor.ts`).
 *
 * @deprecated use `Entity.page` (one page model and cursor format).
 */
export interface KeyPageRequest {
  scope: CursorScope;
  limit: number;
  /** The `next_cursor` of the previous page; none for the first. */
  cursor?: string;
}

/** The key a cursor's position names: an object of string attributes, as DynamoDB gave it. */
function keyAt(position: string, scope: CursorScope): Item {
  let key: unknown;
  try {
    key = JSON.parse(position);
  } catch {
    throw foreignCursor(scope);
  }
  if (!key || typeof key !== 'object' || Array.isArray(key) || !Object.values(key).every((v) => typeof v === 'string')) throw foreignCursor(scope);
  return key as Item;
}

/** One page of a Query: its items (a filter may leave fewer than `limit`) and the cursor of the next page, or null at the end.  *
 * @deprecated use `Entity.page` (one page model and cursor format).
 */
export async function queryAfterCursor(
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit'>,
  page: KeyPageRequest,
): Promise<{ items: Item[]; next_cursor: string | null }> {
  const start = page.cursor === undefined ? undefined : keyAt(await positionOf(page.cursor, page.scope), page.scope);
  const out = await db().send(new QueryCommand({ ...input, TableName: tableName(), Limit: page.limit, ExclusiveStartKey: start }));
  const last = out.LastEvaluatedKey;
  return { items: (out.Items as Item[] | undefined) ?? [], next_cursor: last ? await issueCursor(page.scope, JSON.stringify(last)) : null };
}
