import { LIST_BYTES, jsonBytes } from '../http/limits.js';
import { moduleDisabled, moduleEnabled, notFound, settingsMissing } from '../errors.js';
import { getNamed } from '../db/batch.js';
import type { Item, Key } from '../db/entity.js';
import { nextRecordId } from '../db/record-ids.js';
import { MODULE_CATALOGUE, type ModuleDefinition } from './catalogue.js';
import type { ModuleName } from './names.js';
import {
  ModuleState,
  type ModuleStateItem,
  answerList,
  countGuildItems,
  deleteModuleState,
  firstGuildItems,
  listGuildRecords,
  recordOf,
  moduleStateKey,
  readModuleState,
  writeDisabled,
  writeEnabled,
} from './store.js';

/**
 * Module enable/disable/status for every module (behaviour §5), and
 * the guard every module operation calls first.
 */

/** The settings record as the API shows it: `id`, `guild_id`, then the fields. */
export function settingsRecord(guildId: string, state: ModuleStateItem): Record<string, unknown> | null {
  if (!state.settings) return null;
  // A `_`-prefixed setting is the module's own bookkeeping, never answered (as recordOf leaves out `_` attributes).
  const visible = Object.entries(state.settings).filter(([name]) => !name.startsWith('_'));
  return { id: state.settings_id, guild_id: guildId, ...Object.fromEntries(visible) };
}

/** What enable and disable answer: part 1 modules `status` (+ `settings`), parts 2 and 3 the keys their documents list. */
export async function moduleSnapshot(guildId: string, module: ModuleName, state: ModuleStateItem | null): Promise<Record<string, unknown>> {
  const definition = MODULE_CATALOGUE[module];
  const snapshot: Record<string, unknown> = {};
  if (definition.snapshotStatus) snapshot.status = state?.enabled ?? false;
  if (definition.defaults) snapshot.settings = state ? settingsRecord(guildId, state) : null;
  const lists = Object.entries(definition.lists);
  const groups = Object.entries(definition.groupedLists?.groups ?? {});
  const counted = new Set(definition.counted);
  const [listed, grouped] = await Promise.all([
    Promise.all(
      lists.map(([key, prefix]) =>
        counted.has(key) ? firstRecordsAndCount(guildId, prefix, sinceKey(definition, key, state)) : listGuildRecords(guildId, prefix),
      ),
    ),
    Promise.all(groups.map(([, prefix]) => listGuildRecords(guildId, prefix))),
  ]);
  const countedLists: [string, { records: Record<string, unknown>[]; total: number }][] = [];
  lists.forEach(([key], i) => {
    const list = listed[i]!;
    if (Array.isArray(list)) snapshot[key] = list;
    else countedLists.push([key, list]);
  });
  if (definition.groupedLists) {
    snapshot[definition.groupedLists.key] = Object.fromEntries(groups.map(([key], i) => [key, grouped[i]]));
  }
  // The counted lists share the bytes the rest of the snapshot leaves (behaviour §15: the answer stays under 1 MiB).
  const bytes = Math.floor((LIST_BYTES - jsonBytes(snapshot)) / Math.max(1, countedLists.length));
  for (const [key, list] of countedLists) Object.assign(snapshot, answerList(key, list.records, list.total, bytes));
  return snapshot;
}

/** Where a counted list starts while a delete's older records are being removed (its `data_since`), else undefined: the whole list. */
function sinceKey(definition: ModuleDefinition, key: string, state: ModuleStateItem | null): string | undefined {
  const first = definition.since?.[key];
  return first && state?.data_since !== undefined ? first(state.data_since) : undefined;
}

/**
 * A list that can grow without bound, as an answer shows it: its newest
 * ANSWER_LIST_LIMIT records and its count (behaviour §15), from the sort key
 * `from` on when given.
 */
export async function firstRecordsAndCount(guildId: string, prefix: string, from?: string): Promise<{ records: Record<string, unknown>[]; total: number }> {
  const [items, total] = await Promise.all([firstGuildItems(guildId, prefix, undefined, from), countGuildItems(guildId, prefix, from)]);
  return { records: items.map(recordOf), total };
}

export async function moduleStatus(guildId: string, module: ModuleName): Promise<{ status: boolean }> {
  const state = await readModuleState(guildId, module);
  return { status: state?.enabled ?? false };
}

export async function enableModule(guildId: string, module: ModuleName): Promise<Record<string, unknown>> {
  const defaults = MODULE_CATALOGUE[module].defaults;
  // One conditional write, without reading first: it creates the default settings only when there are none, and
  // a settings record keeps the id it got then. An id drawn for a module whose settings exist goes unused (ids are
  // unique, not dense: behaviour §3.4).
  const settingsId = defaults ? await nextRecordId(`${module}.settings`) : 0;
  const state = await writeEnabled(guildId, module, defaults ? { settings: defaults, settingsId } : null);
  if (!state) throw moduleEnabled(`The ${module} module is already enabled for guild ${guildId}.`);
  return moduleSnapshot(guildId, module, state);
}

export async function disableModule(guildId: string, module: ModuleName): Promise<Record<string, unknown>> {
  const state = await writeDisabled(guildId, module);
  if (!state) throw moduleDisabled(`The ${module} module is already disabled for guild ${guildId}.`);
  return moduleSnapshot(guildId, module, state);
}

/**
 * The guard of every module operation that needs the module on: 409 while
 * disabled, SettingsError when a module with settings has none. Answers the
 * state so the caller can read the settings without a second read.
 */
export async function requireEnabled(guildId: string, module: ModuleName): Promise<ModuleStateItem> {
  return assertEnabled(guildId, module, await readModuleState(guildId, module));
}

/**
 * {@link requireEnabled} and a read that does not depend on the state (a
 * listing's Query), sent at once: one round trip instead of two. 409 while
 * disabled, whatever the read found; else the state and what was read. The
 * read is wasted only on a disabled module.
 */
export function requireEnabledWhile<T>(guildId: string, module: ModuleName, read: () => Promise<T>): Promise<[ModuleStateItem, T]> {
  return checkedWhile(() => requireEnabled(guildId, module), read);
}

/** A check (the module on, the record there) and a read that does not depend on it, at once: the check's refusal first, else both answers. */
export async function checkedWhile<C, T>(check: () => Promise<C>, read: () => Promise<T>): Promise<[C, T]> {
  const reading = read();
  // A refused check answers first; the read's own failure then has nobody to tell.
  reading.catch(() => undefined);
  const checked = await check();
  return [checked, await reading];
}

/**
 * The checks of {@link requireEnabled} on a state item the caller already
 * read (for example in one batch with its own items).
 */
export function assertEnabled(guildId: string, module: ModuleName, state: ModuleStateItem | null): ModuleStateItem {
  if (!state?.enabled) {
    throw moduleDisabled(`The ${module} module is disabled for guild ${guildId}; enable it with POST /modules/${module}/enable.`);
  }
  if (MODULE_CATALOGUE[module].defaults && !state.settings) {
    throw settingsMissing(`The ${module} module has no settings for guild ${guildId}; enable the module to create them.`);
  }
  return state;
}

/**
 * The first step of every settings-delete operation: the module reads as
 * disabled with no settings from here on; answers the settings record it had
 * (null when none). The module then deletes its own records.
 */
export async function resetModule(guildId: string, module: ModuleName): Promise<Record<string, unknown> | null> {
  const old = await deleteModuleState(guildId, module);
  return old ? settingsRecord(guildId, old) : null;
}

/** What the guard reads beside the module state: an entity, as its key and parse. */
export interface Readable<Fields, Record> {
  key(fields: Fields): Key;
  parse(item: Item): Record;
}

/**
 * {@link requireEnabled} and the one record a use case acts on, in one
 * consistent batch read instead of two reads in turn: 409 while disabled,
 * as requireEnabled, then the entity's record or null (the caller's 404).
 */
export async function requireEnabledWith<F, R>(guildId: string, module: ModuleName, entity: Readable<F, R>, fields: F): Promise<R | null> {
  return (await requireEnabledWithState(guildId, module, entity, fields)).record;
}

/** {@link requireEnabledWith}, answering the state too, for a use case that reads its settings. */
export async function requireEnabledWithState<F, R>(
  guildId: string,
  module: ModuleName,
  entity: Readable<F, R>,
  fields: F,
): Promise<{ state: ModuleStateItem; record: R | null }> {
  const found = await getNamed({ state: moduleStateKey(guildId, module), item: entity.key(fields) });
  const state = assertEnabled(guildId, module, found.state && ModuleState.parse(found.state));
  return { state, record: found.item ? entity.parse(found.item) : null };
}

/** {@link requireEnabledWith} for the record a use case acts on: 409 while disabled, then 404 saying `missing` when there is none. */
export async function requireEnabledRecord<F, R>(guildId: string, module: ModuleName, entity: Readable<F, R>, fields: F, missing: string): Promise<R> {
  const record = await requireEnabledWith(guildId, module, entity, fields);
  if (record === null) throw notFound(missing);
  return record;
}
