/**
 * Lists read a page at a time (behaviour §3.6 and §15), over an entity's
 * partition or one of its indexes. Apart from the entity so that only the
 * functions that answer lists carry the signed cursors and the key they
 * read (the least-privilege check of test/infra/bundle-budget.test.ts).
 */
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ListBudget, fitting } from './budget.js';
import { db } from './client.js';
import { type CursorScope, countedPageAt, foreignCursor, issueCursor, nextCountedCursor, positionOf } from './cursor.js';
import type { KeyPage, KeyPageQuery, Page, PageOptions, PageQuery, Queryable, Range } from './entity.js';
import type { Item } from './item.js';

/** The key a cursor's position names: an object of string attributes, as the table gave it; else the cursor was not issued here. */
function startKeyAt(position: string, scope: CursorScope): Item {
  let key: unknown;
  try {
    key = JSON.parse(position);
  } catch {
    throw foreignCursor(scope);
  }
  if (!key || typeof key !== 'object' || Array.isArray(key) || !Object.values(key).every((v) => typeof v === 'string')) throw foreignCursor(scope);
  return key as Item;
}

/**
 * One page of the range: `page_size` records from where the signed cursor
 * says (or page `page`, found by reading the keys of the pages before it,
 * never their items), ending early rather than pass LIST_BYTES of answer,
 * with the range's `total` (or the one the module keeps) and the cursor of
 * the next page, which continues after the last record read.
 */
export async function readPage<Fields, Record, Shown = Record>(
  list: Queryable<Fields, Record>,
  fields: Fields,
  query: PageQuery,
  options: PageOptions<Record, Shown>,
): Promise<Page<Shown>> {
  const { input, keysOnly, keys, parse } = list.pageReads(fields, options);
  const at = await countedPageAt(options.scope, query.cursor, query.page_size);
  const number = at?.page ?? query.page;
  const before = at?.before ?? (number - 1) * query.page_size;
  const totalReading = options.total ? options.total() : list.count(fields, options);
  totalReading.catch(() => undefined);
  let from: Item | undefined = at?.after ? startKeyAt(at.after, options.scope) : undefined;
  // Without a key to start after, the pages before are stepped over by their keys only, never their items.
  let ended = false;
  for (let skip = from ? 0 : before; skip > 0 && !ended; ) {
    const out = await db().send(new QueryCommand({ ...keysOnly, Limit: skip, ExclusiveStartKey: from }));
    skip -= out.Count ?? 0;
    from = out.LastEvaluatedKey;
    ended = !from;
  }
  const items: Item[] = [];
  while (!ended && items.length < query.page_size) {
    const out = await db().send(new QueryCommand({ ...input, Limit: query.page_size - items.length, ExclusiveStartKey: from }));
    items.push(...((out.Items as Item[] | undefined) ?? []));
    from = out.LastEvaluatedKey;
    ended = !from;
  }
  const shown = await Promise.all(
    items.map((item) => {
      const record = parse(item);
      return options.shown ? options.shown(record) : (record as unknown as Shown);
    }),
  );
  // The page takes records while they fit; one left out (null) is passed over, and the next page starts after it all the same.
  const budget = new ListBudget();
  const kept: Shown[] = [];
  let read = 0;
  for (const record of shown) {
    if (record !== null) {
      if (!budget.take(record)) break;
      kept.push(record);
    }
    read++;
  }
  const last = items[read - 1];
  const lastKey = last ? JSON.stringify(Object.fromEntries(keys.map((name) => [name, String(last[name])]))) : null;
  const total = await totalReading;
  return {
    items: kept,
    page: number,
    page_size: query.page_size,
    total,
    next_cursor: await nextCountedCursor(options.scope, number, before + read, total, lastKey),
  };
}

/**
 * One Query of at most `limit` items from where the signed cursor says
 * (lists read by key: no page number, no total, so a page costs the page
 * only however long the list grows): a filter may leave fewer than `limit`;
 * `next_cursor` is null once nothing follows. A cursor whose key the range
 * has since passed (a later `from`) answers the empty last page; one whose
 * key it has not reached reads from its start.
 */
export async function readKeyPage<Fields, Record>(
  list: Queryable<Fields, Record>,
  fields: Fields,
  request: KeyPageQuery,
  options: Range & { scope: CursorScope },
): Promise<KeyPage<Record>> {
  const { input, parse, sortKey } = list.pageReads(fields, options);
  let start = request.cursor === undefined ? undefined : startKeyAt(await positionOf(request.cursor, options.scope), options.scope);
  if (start) {
    // A range may start later than when its cursor was issued (a `from` of a later time): a start key outside it is not sent (DynamoDB refuses one).
    const at = String(start[sortKey.name]);
    const [below, above] = [at < sortKey.lowest, at > sortKey.highest];
    const [passed, ahead] = options.reverse ? [below, above] : [above, below];
    if (passed) return { items: [], next_cursor: null };
    if (ahead) start = undefined;
  }
  const out = await db().send(new QueryCommand({ ...input, Limit: request.limit, ExclusiveStartKey: start }));
  const last = out.LastEvaluatedKey;
  return {
    items: ((out.Items as Item[] | undefined) ?? []).map(parse),
    next_cursor: last ? await issueCursor(options.scope, JSON.stringify(last)) : null,
  };
}

/**
 * One page of a list read whole (a list that is not one key range of an
 * entity, or whose order is not its keys'), in the same page model and
 * cursor format: `page_size` records from where the cursor (or page number)
 * says, ending early rather than pass LIST_BYTES; positions are counts.
 */
export async function pageWithin<T>(all: readonly T[], query: PageQuery, scope: CursorScope): Promise<Page<T>> {
  const at = await countedPageAt(scope, query.cursor, query.page_size);
  const number = at?.page ?? query.page;
  const before = at?.before ?? (number - 1) * query.page_size;
  const items = fitting(all.slice(before, before + query.page_size));
  return {
    items,
    page: number,
    page_size: query.page_size,
    total: all.length,
    next_cursor: await nextCountedCursor(scope, number, before + items.length, all.length, ''),
  };
}
