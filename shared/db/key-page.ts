import { type NativeAttributeValue, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db } from './client.js';
import { type CursorScope, foreignCursor, issueCursor, positionOf } from './cursor.js';
import { tableName } from './table.js';

/**
 * A list read a page at a time by key (behaviour §15): one Query of at most
 * `limit` items from where the signed cursor says, never the whole list, so
 * an answer stays small however long the list grows. The cursor's position
 * is the page's last key; it is bound to the list's scope (`cursor.ts`).
 */
type Item = Record<string, NativeAttributeValue>;

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

/** One page of a Query: its items (a filter may leave fewer than `limit`) and the cursor of the next page, or null at the end. */
export async function queryPage(
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit'>,
  page: KeyPageRequest,
): Promise<{ items: Item[]; next_cursor: string | null }> {
  const start = page.cursor === undefined ? undefined : keyAt(await positionOf(page.cursor, page.scope), page.scope);
  const out = await db().send(new QueryCommand({ ...input, TableName: tableName(), Limit: page.limit, ExclusiveStartKey: start }));
  const last = out.LastEvaluatedKey;
  return { items: (out.Items as Item[] | undefined) ?? [], next_cursor: last ? await issueCursor(page.scope, JSON.stringify(last)) : null };
}
