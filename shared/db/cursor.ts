/**
 * The opaque cursors of lists read a page at a time (behaviour §11:
 * `next_cursor`, passed back as the `cursor` query field). A cursor carries
 * only where the next page starts, as a string the list chooses, under an
 * HMAC-SHA256 whose key is a secret of the deployment (`CURSOR_SECRET`,
 * or in AWS the secret `CURSOR_SECRET_SECRET_ARN` names). The MAC covers the
 * list's scope too (the guild, the list family and the filter), which the
 * cursor does not carry: a cursor is good only for the list it was issued
 * for, and no one without the secret can make or alter one.
 *
 * Only lists that page read the secret, once per process: a warm Lambda pays
 * for it on its first cursor only.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { unprocessable } from '../errors.js';
import { configuredSecret } from '../secrets.js';

/** What a cursor is bound to: the list it continues. */
export interface CursorScope {
  guildId: string;
  /** The list family, e.g. a statistic family's path. */
  family: string;
  /** The filter of the list, by query field name; null for a filter not given. */
  filter: Record<string, string | null>;
}

const VERSION = 'c2';
/** An HMAC-SHA256 in base64url: 32 bytes. */
const MAC_CHARS = 43;
/** Longer than any position a list keeps; a longer cursor was not issued here. */
const MAX_POSITION_CHARS = 512;

let key: { source: string; secret: Promise<string> } | null = null;

/** The deployment's cursor secret, read once per process (and again only if its configuration changes, as in local-mode restarts). */
function cursorSecret(): Promise<string> {
  const source = process.env.CURSOR_SECRET || process.env.CURSOR_SECRET_SECRET_ARN || '';
  if (key?.source !== source) {
    const secret = configuredSecret('CURSOR_SECRET').then((value) => {
      if (!value) throw new Error('No cursor secret: set CURSOR_SECRET or CURSOR_SECRET_SECRET_ARN');
      return value;
    });
    // A failed read is not kept: the next request tries again.
    secret.catch(() => (key = null));
    key = { source, secret };
  }
  return key.secret;
}

async function macOf(scope: CursorScope, position: string): Promise<Buffer> {
  const filter = Object.keys(scope.filter)
    .sort()
    .map((name) => [name, scope.filter[name] ?? null]);
  // JSON keeps the fields apart: no guild, family or filter value can run into another.
  const signed = JSON.stringify([VERSION, scope.guildId, scope.family, filter, position]);
  return createHmac('sha256', await cursorSecret())
    .update(signed, 'utf8')
    .digest();
}

/** A cursor for `position` in the list `scope` names. */
export async function issueCursor(scope: CursorScope, position: string): Promise<string> {
  return `${VERSION}.${Buffer.from(position, 'utf8').toString('base64url')}.${(await macOf(scope, position)).toString('base64url')}`;
}

/** The 422 of a cursor this service did not issue for this list, naming the query field and what to send instead. */
export function foreignCursor(scope: CursorScope) {
  const fields = ['guild_id', ...Object.keys(scope.filter)].join(', ');
  return unprocessable(
    `Query field 'cursor' is not a cursor this service issued for this list: pass the next_cursor of the previous page, with the same ${fields}.`,
  );
}

/**
 * The position a cursor names, if the service issued it for the list
 * `scope` names; otherwise (altered, truncated, not base64url, too long,
 * issued for another guild, family or filter) a 422 naming `cursor`.
 */
export async function positionOf(cursor: string, scope: CursorScope): Promise<string> {
  const [version, body, mac, ...rest] = cursor.split('.');
  const wellFormed =
    version === VERSION &&
    rest.length === 0 &&
    body !== undefined &&
    mac !== undefined &&
    /^[A-Za-z0-9_-]+$/.test(body) &&
    body.length <= Math.ceil((MAX_POSITION_CHARS * 4) / 3) &&
    /^[A-Za-z0-9_-]+$/.test(mac) &&
    mac.length === MAC_CHARS;
  if (!wellFormed) throw foreignCursor(scope);
  const position = Buffer.from(body, 'base64url').toString('utf8');
  const given = Buffer.from(mac, 'base64url');
  const expected = await macOf(scope, position);
  // Only the spelling the service issued is taken: a body or MAC that decodes loosely (bad UTF-8, stray spare bits in the last character) is not one of its cursors.
  const canonical = Buffer.from(position, 'utf8').toString('base64url') === body && given.toString('base64url') === mac;
  if (!canonical || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw foreignCursor(scope);
  }
  return position;
}

/**
 * Where a page cursor of a list whose pages may end early continues
 * (behaviour §15: a page stops before its answer would pass its bytes): its
 * page, how many records came before that page, and the key part after
 * which it starts (`<page>:<before>|<after>`). A cursor issued before the
 * count was kept continues after `page - 1` full pages.
 */
export async function countedPageAt(
  scope: CursorScope,
  cursor: string | undefined,
  pageSize: number,
): Promise<{ page: number; before: number; after: string } | null> {
  if (cursor === undefined) return null;
  const position = await positionOf(cursor, scope);
  const colon = position.indexOf(':');
  const at = { page: Number(position.slice(0, colon)), after: position.slice(colon + 1) };
  const bar = at.after.indexOf('|');
  if (bar < 0) return { ...at, before: (at.page - 1) * pageSize };
  return { page: at.page, before: Number(at.after.slice(0, bar)), after: at.after.slice(bar + 1) };
}

/**
 * The cursor of the page after `page`, a page whose last record, at `last`,
 * is the `through`-th of the list (counting from the list's start); null
 * when the list ends there (`through` reached `total`, or nothing follows).
 */
export async function nextCountedCursor(scope: CursorScope, page: number, through: number, total: number, last: string | null): Promise<string | null> {
  return last !== null && through < total ? issueCursor(scope, `${page + 1}:${through}|${last}`) : null;
}
