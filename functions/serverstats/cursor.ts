/**
 * The opaque `next_cursor` of statistic fetches: where the next page starts,
 * bound to the guild, the family and the filters it was made for. A cursor
 * that was altered, or that is passed with another guild, family or filter,
 * is a 422; it can never lead a query outside the partition its own
 * request would read.
 */
import { createHash } from 'node:crypto';
import { unprocessable } from '../../shared/errors.js';
import type { Item } from './store.js';

interface CursorBody {
  /** The partition (table or index) the page was read from; it names the guild, family and filters. */
  p: string;
  /** The index, or null for the table. */
  i: string | null;
  /** LastEvaluatedKey of the page. */
  k: Item;
}

const VERSION = 'c1';
/** What follows `<family>#` in a record's sort key: its time and its padded id (store.ts). */
const RECORD_SORT_REST = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z#\d{16}$/;
const digest = (text: string) => createHash('sha256').update(text).digest('base64url').slice(0, 16);

export function encodeCursor(partition: string, index: string | null, lastKey: Item): string {
  const body = Buffer.from(JSON.stringify({ p: partition, i: index, k: lastKey } satisfies CursorBody)).toString('base64url');
  return `${VERSION}.${body}.${digest(body)}`;
}

const refuse = () =>
  unprocessable("Field 'cursor' is not a cursor of this fetch: pass the next_cursor of the previous page, with the same guild_id, user_id and channel_id.");

/**
 * The start key a cursor names, checked against the partition and family
 * this request reads. Any mismatch, damage or alteration is a 422.
 */
export function decodeCursor(cursor: string, partition: string, index: string | null, family: string): Item {
  const [version, body, check, ...rest] = cursor.split('.');
  if (version !== VERSION || !body || !check || rest.length > 0 || digest(body) !== check) throw refuse();
  let parsed: CursorBody;
  try {
    parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as CursorBody;
  } catch {
    throw refuse();
  }
  if (parsed.p !== partition || parsed.i !== index || !parsed.k || typeof parsed.k !== 'object') throw refuse();
  const key = parsed.k as Record<string, unknown>;
  const partitionKey = index ? `${index}pk` : 'pk';
  const allowed = new Set(['pk', 'sk', ...(index ? [`${index}pk`, `${index}sk`] : [])]);
  if (key[partitionKey] !== partition) throw refuse();
  for (const [name, value] of Object.entries(key)) {
    if (!allowed.has(name) || typeof value !== 'string' || value.length > 1024) throw refuse();
  }
  // The page's sort keys, of the table and of an index, are those of a record of this family.
  for (const name of ['sk', ...(index ? [`${index}sk`] : [])]) {
    const sort = String(key[name]);
    if (!sort.startsWith(`${family}#`) || !RECORD_SORT_REST.test(sort.slice(family.length + 1))) throw refuse();
  }
  return parsed.k;
}
