/**
 * Counters in the table: one item per counter in the guild's partition,
 * `COUNTER#<counter_id>`, holding the record and, apart from it, the
 * counter's rename ledger (`_renames`: when its channel was last renamed)
 * and a `_version` every change is conditional on. A guild has at most 20
 * counters, so listing them is one consistent query of that prefix.
 */
import { type Item, entity } from '#shared/db/entity.js';
import { guildKey } from '#shared/modules/store.js';

export interface Counter {
  id: number;
  guild_id: string;
  counter_id: string;
  channel_id: string;
  counter_type: number;
  format: string;
  role_id: string | null;
  goal_count: number | null;
  value: string | null;
  updated_at: string | null;
  /** When the channel was renamed, newest last (at most the rename budget's worth). */
  _renames: string[];
  /** The name the channel has, as last set by the service. */
  _name: string;
  /** The name a rename that had to wait will set. */
  _pending_name: string | null;
  /** No rename is tried before then (clock ms): the platform's `retry_after` of a 429, or the rename budget. */
  _rename_after?: number | null;
  _version: number;
}

const inGuild = (f: { guildId: string }) => guildKey(f.guildId);

export const CounterEntity = entity({
  name: 'stat_counter',
  prefix: 'COUNTER#',
  pk: inGuild,
  sk: (f: { guildId: string; counterId: string }) => [f.counterId],
  parse: (item: Item): Counter => {
    const { pk: _pk, sk: _sk, entity: _entity, ...rest } = item;
    return rest as Counter;
  },
});

/** The counter's API record (behaviour §11). */
export function counterRecord(counter: Counter) {
  const { _renames: _r, _name: _n, _pending_name: _p, _rename_after: _a, _version: _v, ...record } = counter;
  return record;
}

/** The guild's counters, newest first. */
export async function listCounters(guildId: string): Promise<Counter[]> {
  return (await CounterEntity.query({ guildId })).sort((a, b) => b.id - a.id);
}

export function getCounter(guildId: string, counterId: string): Promise<Counter | null> {
  return CounterEntity.get({ guildId, counterId });
}

/** Writes a new counter (`read` null) or replaces the one read, if it is unchanged; false when another write came first. */
export function writeCounter(counter: Counter, read: Counter | null): Promise<boolean> {
  return CounterEntity.put(
    { guildId: counter.guild_id, counterId: counter.counter_id },
    { ...counter, _version: (read?._version ?? 0) + 1 },
    read ? { condition: { _version: read._version } } : { ifAbsent: true },
  );
}

/** Deletes a counter; answers what it held, or null when it was already gone. */
export function deleteCounter(guildId: string, counterId: string): Promise<Counter | null> {
  return CounterEntity.delete({ guildId, counterId }, { returnOld: true });
}

/**
 * How many counters a guild has, as one number under a condition: a create
 * takes a place only while fewer than `max` are taken, so creates racing
 * for the last place cannot both get it. Deletes give places back.
 */
const SlotsEntity = entity({
  name: 'stat_counter_slots',
  prefix: 'COUNTERSLOTS',
  pk: inGuild,
  parse: (item) => ({ taken: Number(item.taken ?? 0), takenAt: Number(item.taken_at ?? 0) }),
});

export function takeCounterSlot(guildId: string, max: number): Promise<boolean> {
  return SlotsEntity.update(
    { guildId },
    { add: { taken: 1 }, set: { taken_at: Date.now() }, condition: { $or: [{ taken: { exists: false } }, { taken: { lt: max } }] }, returnValues: 'NONE' },
  );
}

/** Gives places back (never below none). */
export async function giveCounterSlots(guildId: string, count: number): Promise<void> {
  if (count <= 0) return;
  await SlotsEntity.update({ guildId }, { add: { taken: -count }, condition: { taken: { ge: count } }, returnValues: 'NONE' });
}

/** Sets the places taken to what the counters really are, if still `seen` (repairs a count a crash left too high). */
export async function repairCounterSlots(guildId: string, seen: number, actual: number): Promise<void> {
  await SlotsEntity.update({ guildId }, { set: { taken: actual }, condition: { taken: seen }, returnValues: 'NONE' });
}

/** Places taken, and when the last one was taken (epoch ms). */
export async function countersTaken(guildId: string): Promise<{ taken: number; takenAt: number }> {
  return (await SlotsEntity.get({ guildId })) ?? { taken: 0, takenAt: 0 };
}

/** Every guild with counters has an item in one partition, so a refresh of all guilds needs no scan. */
const GuildWithCountersEntity = entity({
  name: 'stat_counter_guild',
  prefix: '',
  pk: (_: object) => 'COUNTERGUILDS',
  sk: (f: { guildId: string }) => [f.guildId],
  parse: (item) => String(item.sk),
});

export async function noteGuildWithCounters(guildId: string): Promise<void> {
  await GuildWithCountersEntity.put({ guildId }, {});
}

export async function forgetGuildWithCounters(guildId: string): Promise<void> {
  await GuildWithCountersEntity.delete({ guildId });
}

export function guildsWithCounters(): Promise<string[]> {
  return GuildWithCountersEntity.query({});
}

/** The guild's counters, and whether it keeps a count of their places (settings delete). */
export interface CounterData {
  counters: Counter[];
  places: boolean;
}

/** The guild's counters and their places, read side by side. */
export async function counterData(guildId: string): Promise<CounterData> {
  const [counters, places] = await Promise.all([listCounters(guildId), SlotsEntity.get({ guildId })]);
  return { counters, places: places !== null };
}

/**
 * Deletes every item the guild's counters keep (settings delete): the
 * counters, their places and the guild's note in the refresh list. A guild
 * that never took a place has none of them, so nothing is written for it. A
 * note a crash left behind is dropped by the refresh, which finds no counters.
 */
export async function deleteCounterData(guildId: string, data: CounterData): Promise<void> {
  if (data.counters.length === 0 && !data.places) return;
  await Promise.all([
    CounterEntity.deleteMany(data.counters.map((c) => ({ guildId, counterId: c.counter_id }))),
    SlotsEntity.deleteMany([{ guildId }]),
    GuildWithCountersEntity.deleteMany([{ guildId }]),
  ]);
}
