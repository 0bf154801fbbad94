/**
 * The `next_cursor` of statistic fetches. Its position is the last record's
 * place in its family (`<time>#<padded id>`); the start key is rebuilt from
 * that place and the request's own guild, family and filters, so a cursor
 * can never lead a query outside the range its request reads. The cursor is
 * signed for that guild, family and filter (shared/db/cursor.ts); any other
 * is a 422.
 */
import { type CursorScope, foreignCursor, issueCursor, positionOf } from '#shared/db/cursor.js';
import { type Item, type StatQuery, recordPlace, startKeyAt } from './store.js';

/** What follows `<family>#` in a record's sort key: its time and its padded id (store.ts). */
const RECORD_PLACE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z#\d{16}$/;

type Fetch = Pick<StatQuery, 'guildId' | 'family' | 'memberId' | 'channelId'>;

const scopeOf = (q: Fetch): CursorScope => ({ guildId: q.guildId, family: q.family, filter: { user_id: q.memberId, channel_id: q.channelId } });

/** The cursor of the page that ends with `lastKey`. */
export function encodeCursor(q: Fetch, lastKey: Item): Promise<string> {
  return issueCursor(scopeOf(q), recordPlace(q.family, lastKey));
}

/** The start key of the page a cursor names, for this fetch only. */
export async function decodeCursor(cursor: string, q: Fetch): Promise<Item> {
  const scope = scopeOf(q);
  const place = await positionOf(cursor, scope);
  if (!RECORD_PLACE.test(place)) throw foreignCursor(scope);
  return startKeyAt(q, place);
}
