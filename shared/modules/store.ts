import { type Item, entity, partition } from '../db/entity.js';
import { TABLE } from '../db/table.js';
import { LIST_BYTES, ListBudget, fitting } from '../http/limits.js';
import type { ModuleName } from './names.js';

/**
 * Module state lives in one item per guild and module: whether it is enabled,
 * its settings, and a version bumped on every change. Every transition is a
 * conditional write on that one item, so two concurrent enables cannot both
 * succeed.
 */
export interface ModuleStateItem {
  enabled: boolean;
  settings?: Record<string, unknown>;
  settings_id?: number;
  version: number;
  created_at: string;
  updated_at: string;
  /**
   * Set by a settings delete whose data is removed behind its answer
   * (behaviour §15): the module reads only data stored at or after this
   * time (ISO 8601), so it reads as reset while the removal runs.
   */
  data_since?: string;
}

/** The guild's partition key; every module's guild-scoped items live under it or derive from it. */
export const guildKey = partition<[guildId: string]>('G#');

/** A module's state item in the guild partition. */
export const ModuleState = entity({
  name: 'module_state',
  prefix: 'MODULE#',
  pk: (f: { guildId: string; module: ModuleName }) => guildKey(f.guildId),
  sk: (f) => [f.module],
  parse: (item): ModuleStateItem => {
    const state: ModuleStateItem = {
      enabled: item.enabled === true,
      version: Number(item.version),
      created_at: String(item.created_at),
      updated_at: String(item.updated_at),
    };
    if (item.settings !== undefined) state.settings = item.settings as Record<string, unknown>;
    if (item.settings_id !== undefined) state.settings_id = Number(item.settings_id);
    if (item.data_since !== undefined) state.data_since = String(item.data_since);
    return state;
  },
});
/** The key of a module's state item (exported for modules that read it together with their own items). */
export const moduleStateKey = (guildId: string, module: ModuleName) => ModuleState.key({ guildId, module });

/** Internal attributes that never reach a response. */
const INTERNAL = new Set([TABLE.partitionKey, TABLE.sortKey, ...TABLE.indexes.flatMap((i) => [i.partitionKey, i.sortKey]), 'entity', 'expires_at', 'version']);

/** An item as its API record: the stored record attributes without keys and bookkeeping (also any `_`-prefixed attribute). */
export function recordOf(item: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(item)
      // The table's TTL attribute is a number; a record's own `expires_at` (an invite's) is a date-time string and stays.
      .filter(([key, value]) => !(INTERNAL.has(key) && !(key === 'expires_at' && typeof value === 'string')) && !key.startsWith('_'))
      // A set of IDs is answered as the user documents type such lists: the IDs joined by commas, in numeric order.
      .map(([key, value]) => [key, value instanceof Set ? joinIds(value as Set<string>) : value]),
  );
}

/** IDs joined by commas in numeric order (`""` for none). */
export function joinIds(ids: Iterable<string>): string {
  return [...ids].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0)).join(',');
}

export async function readModuleState(guildId: string, module: ModuleName, options: { consistent?: boolean } = {}): Promise<ModuleStateItem | null> {
  const consistent = options.consistent ?? true;
  const state = await ModuleState.get({ guildId, module }, { consistent });
  // An eventually consistent read may miss the last second's writes: it is cached as a second old, so what it shows is never older than the caller allows.
  cached.set(`${guildId}/${module}`, { state, at: Date.now() - (consistent ? 0 : EVENTUAL_LAG_MS) });
  return state;
}

/**
 * How old an eventually consistent read may be: DynamoDB's reads catch up
 * with the last write "usually within a second" (its developer guide).
 */
export const EVENTUAL_LAG_MS = 1000;

/** States read by this process, for operations that may act on a slightly old state. */
const cached = new Map<string, { state: ModuleStateItem | null; at: number }>();

/**
 * The module state as read at most `maxAgeMs` ago by this process, else
 * read now. For operations called on every platform event (statistics
 * recording), where behaviour §12 allows acting on settings up to 10 s old.
 * `consistent: false` reads it eventually consistent (half the read's
 * cost), counted {@link EVENTUAL_LAG_MS} old from the start.
 * Every write through this file forgets the entry, so a process that
 * changes a module's state (local mode runs all handlers in one) never
 * acts on the state before its own change.
 */
export async function readModuleStateCached(
  guildId: string,
  module: ModuleName,
  maxAgeMs: number,
  options: { consistent?: boolean } = {},
): Promise<ModuleStateItem | null> {
  const hit = cached.get(`${guildId}/${module}`);
  if (hit && Date.now() - hit.at < maxAgeMs) return hit.state;
  if (cached.size > 10_000) cached.clear();
  return readModuleState(guildId, module, options);
}

const forget = (guildId: string, module: ModuleName) => cached.delete(`${guildId}/${module}`);

/**
 * Turns the module on; creates `defaults` as its settings when it has none.
 * Answers null when it was already enabled.
 */
export async function writeEnabled(
  guildId: string,
  module: ModuleName,
  defaults: { settings: Record<string, unknown>; settingsId: number } | null,
): Promise<ModuleStateItem | null> {
  forget(guildId, module);
  const now = new Date().toISOString();
  return ModuleState.update(
    { guildId, module },
    {
      set: { enabled: true, updated_at: now },
      setIfAbsent: { created_at: now, ...(defaults ? { settings: defaults.settings, settings_id: defaults.settingsId } : {}) },
      add: { version: 1 },
      condition: { $or: [{ enabled: { exists: false } }, { enabled: false }] },
    },
  );
}

/** Turns the module off, keeping its data. Answers null when it was not enabled. */
export async function writeDisabled(guildId: string, module: ModuleName): Promise<ModuleStateItem | null> {
  forget(guildId, module);
  return ModuleState.update(
    { guildId, module },
    { set: { enabled: false, updated_at: new Date().toISOString() }, add: { version: 1 }, condition: { enabled: true } },
  );
}

/**
 * Changes some settings fields, provided the item is enabled, with
 * settings, and still at `version` (null: whatever its version; each field
 * is set on its own, so the others stay as they are). Answers the new
 * state, or null when the condition failed (a concurrent change the caller
 * did not see).
 */
export async function writeSettings(guildId: string, module: ModuleName, fields: [string, unknown][], version: number | null): Promise<ModuleStateItem | null> {
  forget(guildId, module);
  return ModuleState.update(
    { guildId, module },
    {
      // Each field is a member of the settings map (a document path), so the others stay as they are.
      set: { ...Object.fromEntries(fields.map(([field, value]) => [`settings.${field}`, value])), updated_at: new Date().toISOString() },
      add: { version: 1 },
      condition: { ...(version === null ? {} : { version }), enabled: true, settings: { exists: true } },
    },
  );
}

/** Removes the module's state item (it reads as disabled, with no settings); answers what it held. */
export async function deleteModuleState(guildId: string, module: ModuleName): Promise<ModuleStateItem | null> {
  forget(guildId, module);
  return ModuleState.delete({ guildId, module }, { returnOld: true });
}

/**
 * Notes on the module's state item (made, disabled, when the delete removed
 * it) that its data older than `since` is being removed behind the answer:
 * the module reads only what is stored at or after it (`data_since`).
 * Enabling again keeps the note; a later delete replaces it.
 */
export async function writeDataSince(guildId: string, module: ModuleName, since: string): Promise<void> {
  forget(guildId, module);
  const now = new Date().toISOString();
  await ModuleState.update({ guildId, module }, { set: { data_since: since, updated_at: now }, setIfAbsent: { created_at: now }, returnValues: 'NONE' });
}

/**
 * The guild's items under a sort-key prefix, whichever module's entity they
 * are: a module's data of a guild is one range (docs/architecture.md), read,
 * counted and deleted as one. Items are answered as stored.
 */
const guildRange = (prefix: string) =>
  entity({
    name: 'guild_range',
    prefix,
    pk: (f: { guildId: string }) => guildKey(f.guildId),
    // An item's sort key is the prefix, then the rest its own entity gave it.
    sk: (f: { guildId: string; rest: string }) => [f.rest],
    parse: (item): Item => item,
  });

/**
 * Deletes every item of the guild under a sort-key prefix (a module's data,
 * read consistently once the module is reset); answers them as stored,
 * oldest first, so the caller can say what it removed.
 */
export async function deleteGuildItems(guildId: string, prefix: string): Promise<Record<string, unknown>[]> {
  const range = guildRange(prefix);
  const items = await range.query({ guildId });
  await range.deleteMany(items.map((item) => ({ guildId, rest: String(item.sk).slice(prefix.length) })));
  return items;
}

/**
 * At most this many records of a list that can grow without bound go in an
 * answer that is not that list's own route (a snapshot, a settings delete):
 * the newest, with the list's count beside them (behaviour §15), and no more
 * than fit in the list's bytes (`LIST_BYTES`), so the answer stays under
 * 1 MiB however large each record may be.
 */
export const ANSWER_LIST_LIMIT = 1000;

/**
 * A list as an answer that is not its own route shows it: the head of
 * `records` (newest first), at most ANSWER_LIST_LIMIT of them within `bytes`
 * of JSON, under `key`, and its count, `total` (all of `records` when they
 * are the whole list), under `<key>_total`.
 */
export function answerList<K extends string, T>(
  key: K,
  records: readonly T[],
  total: number = records.length,
  bytes: number = LIST_BYTES,
): Record<K, T[]> & Record<`${K}_total`, number> {
  return { [key]: fitting(records.slice(0, ANSWER_LIST_LIMIT), bytes), [`${key}_total`]: total } as Record<K, T[]> & Record<`${K}_total`, number>;
}

/**
 * The head of a list an answer shows (behaviour §15), taken from `pages`
 * (records newest first, a page at a time) record by record, at most
 * ANSWER_LIST_LIMIT within `bytes` of JSON: no page past the one that fills
 * it is read, so a list whose records each cost reads (a poll's votes, a
 * giveaway's entrants) costs only those shown.
 */
export async function shownList<T>(pages: AsyncIterable<T[]>, bytes: number = LIST_BYTES): Promise<T[]> {
  const budget = new ListBudget(bytes);
  const shown: T[] = [];
  for await (const page of pages) {
    for (const record of page) {
      if (shown.length === ANSWER_LIST_LIMIT || !budget.take(record)) return shown;
      shown.push(record);
    }
  }
  return shown;
}

/**
 * The key condition of the guild's items under a sort-key prefix, from the
 * sort key `from` on when given (records stored at or after a delete whose
 * older ones are still being removed: behaviour §15).
 */
export function prefixRange(guildId: string, prefix: string, from?: string) {
  return from === undefined
    ? { KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':pk': guildKey(guildId), ':prefix': prefix } }
    : // Sort keys are ASCII: every key under the prefix sorts before the prefix and U+FFFF.
      {
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': guildKey(guildId), ':from': from, ':to': `${prefix}\uffff` },
      };
}

/**
 * The first `limit` items of the guild under a sort-key prefix (from `from`
 * on), newest first (sort keys end in a time-ordered part): Queries of at
 * most what is still missing, never the rest of the list.
 */
export async function firstGuildItems(guildId: string, prefix: string, limit = ANSWER_LIST_LIMIT, from?: string): Promise<Record<string, unknown>[]> {
  return guildRange(prefix).query({ guildId }, { reverse: true, limit, from });
}

/** How many items the guild has under a sort-key prefix (from `from` on): the table counts them, none is answered. */
export async function countGuildItems(guildId: string, prefix: string, from?: string): Promise<number> {
  return guildRange(prefix).count({ guildId }, { from });
}

/** The guild's records under a sort-key prefix, newest first (sort keys end in a time-ordered part). */
export async function listGuildRecords(guildId: string, prefix: string): Promise<Record<string, unknown>[]> {
  const items = await guildRange(prefix).query({ guildId }, { reverse: true, consistent: false });
  return items.map(recordOf);
}
