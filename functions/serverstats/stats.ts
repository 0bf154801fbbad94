/**
 * Recording and fetching statistics (behaviour §D2, §12): what the
 * family endpoints do. Recording is called on every platform event, so it
 * costs one write: the module state comes from a cache of at most 10 s, and
 * record ids from a block reserved ahead.
 */
import { nextRecordIdFromBlock, recordIdAhead } from '#shared/db/record-ids.js';
import { assertEnabled, checkedWhile } from '#shared/modules/state.js';
import { readModuleStateCached } from '#shared/modules/store.js';
import type { Family, FamilyShape } from './families.js';
import { positionOf, foreignCursor, issueCursor } from '#shared/db/cursor.js';
import { filteredPackedStatsAfter } from './filing.js';
import { type PackedStat, PACK_SPAN_MS, packsNewestFirst } from './packs.js';
import {
  type Item,
  type OpenActivity,
  type StatPosition,
  type StatQuery,
  closeVoice,
  endRecord,
  getOpenPresence,
  isAfter,
  openVoice,
  putStat,
  scopeOf,
  singleStatsAfter,
  writeOpenPresence,
} from './store.js';

export const MODULE = 'serverstats';
/** How old the module state a recording acts on may be (behaviour §12). */
export const SETTINGS_CACHE_MS = 10_000;
export const ID_TYPE = 'serverstats.stat';
const MAX_ATTEMPTS = 8;

export type Body = Record<string, unknown> & { guild_id: string };

/**
 * The settings a recording needs, from the cache; 409 while disabled. Null:
 * the family's toggle is off; else since when the guild's data counts (a
 * settings delete's time while its removal runs behind it, `''` when none).
 */
async function recordingSince(guildId: string, family: Family): Promise<string | null> {
  const state = assertEnabled(guildId, MODULE, await readModuleStateCached(guildId, MODULE, SETTINGS_CACHE_MS));
  return state.settings?.[family.toggle] === false ? null : (state.data_since ?? '');
}

async function recordingAllowed(guildId: string, family: Family): Promise<boolean> {
  return (await recordingSince(guildId, family)) !== null;
}

export const off = (family: Family) => ({ message: `Not recorded: '${family.toggle}' is off for this guild, so ${family.path} statistics are not kept.` });

/** The record's fields, and the member and channel it names, from a recording body. */
export function recordFromBody(shape: FamilyShape, body: Body): { fields: Item; memberId: string | null; channelId: string | null } {
  const s = (name: string) => String(body[name]);
  switch (shape.kind) {
    case 'user':
      return { fields: { user_id: s(shape.from) }, memberId: s(shape.from), channelId: null };
    case 'member':
      return { fields: { member_id: s(shape.from) }, memberId: s(shape.from), channelId: null };
    case 'none':
      return { fields: {}, memberId: null, channelId: null };
    case 'number':
      return { fields: { [shape.field]: body[shape.field] }, memberId: null, channelId: null };
    case 'statuses':
      return { fields: { online_count: body.online_count, offline_count: body.offline_count, dnd_count: body.dnd_count }, memberId: null, channelId: null };
    case 'total':
      return { fields: { current_members: body.current_members }, memberId: null, channelId: null };
    case 'messages':
      return {
        fields: { channel_id: s('channel_id'), message_id: s('message_id'), author_id: s('author_id') },
        memberId: s('author_id'),
        channelId: s('channel_id'),
      };
    case 'commands':
      return { fields: { user_id: s('initiator_id'), command: s('command') }, memberId: s('initiator_id'), channelId: null };
    case 'trigger-hit':
      return { fields: { triggering_user_id: s('creating_user_id'), trigger_id: s('trigger_id') }, memberId: s('creating_user_id'), channelId: null };
    case 'presence':
    case 'voice':
      throw new Error(`${shape.kind} is recorded by its own use case`);
  }
}

/** POST /stats/<family> of the families with one record per call. */
export async function recordStat(family: Family, body: Body): Promise<{ message: string }> {
  const taking = recordIdAhead(ID_TYPE, true);
  if (!(await recordingAllowed(body.guild_id, family))) return off(family);
  const { fields, memberId, channelId } = recordFromBody(family.shape, body);
  const time = new Date().toISOString();
  const id = await taking;
  await putStat({
    guildId: body.guild_id,
    family: family.path,
    id,
    time,
    memberId,
    channelId,
    record: { id, guild_id: body.guild_id, ...fields, timestamp: time },
  });
  return { message: `Recorded ${family.path} statistic ${id}.` };
}

export interface Activity {
  activity_type: number;
  name: string;
}

const activityKey = (a: Activity) => `${a.activity_type}\u0000${a.name}`;

/**
 * POST /stats/activities/presence: one record per activity not already
 * open, and `end_time` now on the member's open records whose activity is
 * no longer listed. The member's open activities are one item under a
 * version, so two recordings at once for one member neither lose nor
 * double an activity.
 */
export async function recordPresence(
  family: Family,
  body: Body & { presence_user_id: string; activities: Activity[] },
  at?: string,
): Promise<{ message: string }> {
  const guildId = body.guild_id;
  const memberId = body.presence_user_id;
  // The member's open activities are read beside the state (on a cold cache, a request of its own).
  const [since, first] = await checkedWhile(
    () => recordingSince(guildId, family),
    () => getOpenPresence(guildId, memberId),
  );
  if (since === null) return off(family);
  const listed = new Map(body.activities.map((a) => [activityKey(a), a]));
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const open = attempt === 0 ? first : await getOpenPresence(guildId, memberId);
    // Activities opened before a settings delete belong to records it removes: they are not open any more.
    const current = (open?.activities ?? []).filter((a) => a.time >= since);
    const ended = current.filter((a) => !listed.has(activityKey(a)));
    const kept = current.filter((a) => listed.has(activityKey(a)));
    const openKeys = new Set(kept.map(activityKey));
    const time = at ?? new Date().toISOString();
    const started: OpenActivity[] = [];
    for (const activity of listed.values()) {
      if (openKeys.has(activityKey(activity))) continue;
      started.push({ activity_type: activity.activity_type, name: activity.name, time, id: await nextRecordIdFromBlock(ID_TYPE) });
    }
    if (ended.length === 0 && started.length === 0) return { message: 'Nothing changed: every listed activity is already recorded as ongoing.' };
    if (!(await writeOpenPresence(guildId, memberId, [...kept, ...started], open))) continue;
    for (const a of started) {
      await putStat({
        guildId,
        family: family.path,
        id: a.id,
        time: a.time,
        memberId,
        channelId: null,
        record: { id: a.id, guild_id: guildId, user_id: memberId, start_time: a.time, end_time: null, presence_name: a.name, activity_type: a.activity_type },
      });
    }
    for (const a of ended) await endRecord(guildId, { family: family.path, time: a.time, id: a.id }, 'end_time', time);
    return { message: `Recorded ${started.length} started and ${ended.length} ended activities of member ${memberId}.` };
  }
  throw new Error(`the open activities of member ${memberId} kept changing`);
}

/** POST /stats/voice: the member joined a voice channel; opens a session (`left_at` null). */
export async function openVoiceSession(
  family: Family,
  body: Body & { channel_id: string; joined_member_id: string },
  at?: string,
): Promise<{ message: string }> {
  if (!(await recordingAllowed(body.guild_id, family))) return off(family);
  const { guild_id: guildId, channel_id: channelId, joined_member_id: memberId } = body;
  const time = at ?? new Date().toISOString();
  const id = await nextRecordIdFromBlock(ID_TYPE);
  // A join while a session is open (a missed leave) closes the old session first, so one member has one open session per channel.
  if (!(await openVoice(guildId, channelId, memberId, { time, id }))) {
    const stale = await closeVoice(guildId, channelId, memberId);
    if (stale) await endRecord(guildId, { family: family.path, time: stale.time, id: stale.id }, 'left_at', time);
    await openVoice(guildId, channelId, memberId, { time, id });
  }
  await putStat({
    guildId,
    family: family.path,
    id,
    time,
    memberId,
    channelId,
    record: { id, guild_id: guildId, channel_id: channelId, user_id: memberId, joined_at: time, left_at: null },
  });
  return { message: `Opened voice session ${id} of member ${memberId} in channel ${channelId}.` };
}

/** PUT /stats/voice: the member left; closes their open session in that channel (none open: nothing stored). */
export async function closeVoiceSession(
  family: Family,
  body: Body & { channel_id: string; left_member_id: string },
  at?: string,
): Promise<{ message: string }> {
  const since = await recordingSince(body.guild_id, family);
  if (since === null) return off(family);
  const { guild_id: guildId, channel_id: channelId, left_member_id: memberId } = body;
  const found = await closeVoice(guildId, channelId, memberId);
  // A session opened before a settings delete belongs to a record it removes: closing it stores nothing.
  const session = found && found.time >= since ? found : null;
  if (!session) return { message: `Nothing stored: member ${memberId} has no open voice session in channel ${channelId}.` };
  await endRecord(guildId, { family: family.path, time: session.time, id: session.id }, 'left_at', at ?? new Date().toISOString());
  return { message: `Closed voice session ${session.id} of member ${memberId} in channel ${channelId}.` };
}

export interface FetchInput {
  guild_id: string;
  days: number;
  user_id?: string | null;
  channel_id?: string | null;
  limit: number;
  cursor?: string;
}

/** Where a fetch's cursor continues: after the record at this time and id (as JSON text, as the table's keys were). */
const positionText = (p: StatPosition) => JSON.stringify(`${p.time}#${String(p.id).padStart(16, '0')}`);
async function cursorPosition(cursor: string, query: StatQuery): Promise<StatPosition> {
  const scope = scopeOf(query);
  let place: unknown;
  try {
    place = JSON.parse(await positionOf(cursor, scope));
  } catch {
    throw foreignCursor(scope);
  }
  const match = typeof place === 'string' ? /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)#(\d{16})$/.exec(place) : null;
  if (!match) throw foreignCursor(scope);
  return { time: match[1]!, id: Number(match[2]) };
}

const newestFirst = (a: StatPosition, b: StatPosition) => (isAfter(a, b) ? 1 : isAfter(b, a) ? -1 : 0);

/**
 * The batched records of a fetch's page (besides the single ones): the
 * family's packs from the newest, until no pack left can hold a record
 * newer than the page's `limit + 1` it has (a pack's records are at most
 * {@link PACK_SPAN_MS} older than its newest). A filtered fetch reads
 * its member's or channel's filed items instead (`filing.ts`).
 */
async function packedStatsAfter(q: StatQuery, after: StatPosition | null, limit: number): Promise<PackedStat[]> {
  // A filter reads the filed items of the hours filed, and the packs only of the hours not yet filed.
  if (q.memberId || q.channelId) return filteredPackedStatsAfter(q, after, limit);
  const through = after ? new Date(Date.parse(after.time) + PACK_SPAN_MS).toISOString() : '\uffff';
  const found: PackedStat[] = [];
  for await (const pack of packsNewestFirst(q.guildId, q.family, q.since, through, { memberId: q.memberId, channelId: q.channelId })) {
    for (const stat of pack.stats) {
      if (stat.time < q.since || (after && !isAfter(stat, after))) continue;
      found.push(stat);
    }
    // Every pack left is filed at this pack's newest time or earlier: records newer than it are final.
    if (found.filter((stat) => stat.time > pack.newest).length > limit) break;
  }
  return found;
}

/**
 * GET /stats/<family>: the records of the last `days` days, newest first, a
 * page at a time: the single records and the batched ones merged, so the
 * answer is the one the same records recorded one by one would give.
 * Records stored before a settings delete are not answered (the window
 * starts at the delete, `data_since`).
 */
export async function fetchStats(family: Family, input: FetchInput): Promise<{ stats: Item[]; next_cursor: string | null }> {
  const state = assertEnabled(input.guild_id, MODULE, await readModuleStateCached(input.guild_id, MODULE, 0));
  const window = new Date(Date.now() - input.days * 86_400_000).toISOString();
  // The later of the two ISO times (strings, so no Math.max).
  const since = [window, state.data_since ?? ''].sort()[1]!;
  const query: StatQuery = { guildId: input.guild_id, family: family.path, memberId: input.user_id ?? null, channelId: input.channel_id ?? null, since };
  // An empty cursor is no cursor, as the first page's request.
  const after = input.cursor ? await cursorPosition(input.cursor, query) : null;
  const [single, packed] = await Promise.all([singleStatsAfter(query, after, input.limit + 1), packedStatsAfter(query, after, input.limit)]);
  const merged = [...single, ...packed].sort(newestFirst);
  const page = merged.slice(0, input.limit);
  const last = page.at(-1);
  // A full page has a cursor, as a full Query of the table had (the page after it may be empty).
  return {
    stats: page.map((stat) => stat.record),
    next_cursor: page.length === input.limit && last ? await issueCursor(scopeOf(query), positionText(last)) : null,
  };
}
