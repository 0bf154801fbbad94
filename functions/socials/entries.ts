/**
 * Monitor entries (behaviour §6 and §7): a guild channel watching a forum
 * community, a stream account, a feed or a video channel. Creating one
 * checks the source once and records what it holds as the baseline (never
 * announced); deleting one deletes that identifier's entries in every
 * channel of the guild, and a source no guild watches stops being polled.
 */
import { recordIdAhead } from '#shared/db/record-ids.js';
import { notFound, unprocessable } from '#shared/errors.js';
import type { PageQuery } from '#shared/db/entity.js';
import { pageWithin } from '#shared/db/page.js';
import { requireEnabled, requireEnabledWhile } from '#shared/modules/state.js';
import { cancel, requestLater } from '#shared/scheduler/index.js';
import type { SourceItem } from './feed/parse.js';
import { KINDS, type Kind } from './kinds.js';
import { latestOf, pollIntervalMs, pollJob, recentOf, seenAfter } from './polling.js';
import { SourceError, feedItems, forumItems, shownSource, sourceDeadline, streamAccountExists, uploadsPlaylistOf, videoItems } from './reach/sources.js';
import {
  type Entry,
  type Source,
  deleteEntries,
  deleteSource,
  deleteWatchers,
  entriesOf,
  getSource,
  getSources,
  giveEntrySlots,
  insertEntry,
  insertSource,
  putWatcher,
  sourcePartition,
  takeEntrySlot,
  watchersOf,
} from './store.js';

const MODULE = 'socials';
export const MAX_ENTRIES_PER_KIND = 25;

/** An entry as the API shows it (behaviour §6), with its source's state. */
export function entryRecord(entry: Entry, source: Source | undefined) {
  const record: Record<string, unknown> = {
    id: entry.id,
    guild_id: entry.guild_id,
    target_channel_id: entry.target_channel_id,
    mention_everyone: entry.mention_everyone,
    created_at: entry.created_at,
    [KINDS[entry.kind].field]: entry.identifier,
    failures: source?.failures ?? 0,
    next_poll_at: source?.next_poll_at ?? null,
  };
  if (entry.kind === 'rss') record.latest_entry = source?.latest ?? null;
  if (entry.kind === 'video') Object.assign(record, { uploads_playlist_id: source?.uploads_playlist_id ?? null, latest_video_id: source?.latest ?? null });
  return record;
}

/** Records of entries, newest first, with their sources read in one batch. */
export async function entryRecords(entries: Entry[]) {
  const sources = await getSources([...new Map(entries.map((e) => [`${e.kind}:${e.ident}`, { kind: e.kind, ident: e.ident }])).values()]);
  return [...entries]
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id)
    .map((e) => entryRecord(e, sources.get(sourcePartition(e.kind, e.ident))));
}

/** A page of the guild's entries of one kind, newest first (behaviour §3.6; a page ends early rather than pass 1 MiB, §15). */
export async function listKindEntries(guildId: string, kind: Kind, query: PageQuery) {
  const [, entries] = await requireEnabledWhile(guildId, MODULE, () => entriesOf(guildId, kind));
  const { items, ...pageFields } = await pageWithin(await entryRecords(entries), query, { guildId, family: `socials/${kind}`, filter: {} });
  return { entries: items, ...pageFields };
}

/** Checks a source that nothing watches yet, and answers it with its baseline: every request of the check within one source limit. */
async function checkSource(kind: Kind, ident: string, identifier: string): Promise<Source> {
  let items: SourceItem[] = [];
  let uploads: string | null = null;
  let etag: string | null = null;
  let lastModified: string | null = null;
  const deadline = sourceDeadline();
  try {
    if (kind === 'forum') items = await forumItems(ident, deadline);
    else if (kind === 'stream') await streamAccountExists(ident, deadline);
    else if (kind === 'video') {
      uploads = await uploadsPlaylistOf(identifier, deadline);
      items = await videoItems(uploads, deadline);
    } else {
      const feed = await feedItems(identifier, {}, deadline);
      items = feed?.items ?? [];
      etag = feed?.etag ?? null;
      lastModified = feed?.lastModified ?? null;
    }
  } catch (error) {
    if (error instanceof SourceError) throw unprocessable(`Field '${KINDS[kind].field}': ${error.message}.`);
    throw error;
  }
  return {
    kind,
    ident,
    identifier,
    seen: seenAfter([], recentOf(items)),
    latest: latestOf(kind, items),
    etag,
    last_modified: lastModified,
    failures: 0,
    next_poll_at: new Date(Date.now() + pollIntervalMs()).toISOString(),
    uploads_playlist_id: uploads,
    live_session: null,
    live_since: null,
    version: 1,
  };
}

/** The source of an identifier, checked and stored (with its baseline) when no guild watched it before. */
async function ensureSource(kind: Kind, ident: string, identifier: string): Promise<Source> {
  const existing = await getSource(kind, ident);
  if (existing) return existing;
  const source = await checkSource(kind, ident, identifier);
  if (!(await insertSource(source))) return (await getSource(kind, ident)) ?? source;
  return source;
}

/**
 * Makes sure the source is polled: one job per source (streams: one job per
 * shard of accounts). The first poll is an interval away, so the producer sends
 * it (with `SOCIALS_POLL_SECONDS` under a minute in AWS, it may start up to
 * a minute late; the baseline is recorded, so nothing is missed).
 */
export function schedulePolling(kind: Kind, ident: string): Promise<void> {
  const { job, key, payload } = pollJob(kind, ident);
  return requestLater(job, key, pollIntervalMs(), payload);
}

export async function createEntry(
  guildId: string,
  kind: Kind,
  input: { ident: string; identifier: string; target_channel_id: string; mention_everyone: boolean },
) {
  const id = recordIdAhead('socials.entry');
  await requireEnabled(guildId, MODULE);
  const field = KINDS[kind].field;
  if (!(await takeEntrySlot(guildId, kind, MAX_ENTRIES_PER_KIND))) {
    throw unprocessable(`Guild ${guildId} has ${MAX_ENTRIES_PER_KIND} ${kind} entries, the most a guild may have; delete one first.`);
  }
  let entry: Entry;
  let source: Source;
  try {
    source = await ensureSource(kind, input.ident, input.identifier);
    entry = {
      id: await id,
      guild_id: guildId,
      kind,
      ident: input.ident,
      identifier: input.identifier,
      target_channel_id: input.target_channel_id,
      mention_everyone: input.mention_everyone,
      created_at: new Date().toISOString(),
    };
    if (!(await insertEntry(entry))) {
      throw unprocessable(
        `Field '${field}': channel ${input.target_channel_id} of guild ${guildId} already watches the ${shownSource(kind, input.identifier)}.`,
      );
    }
  } catch (error) {
    await giveEntrySlots(guildId, kind, 1);
    throw error;
  }
  await putWatcher(kind, input.ident, { guild_id: guildId, channel_id: input.target_channel_id, mention_everyone: input.mention_everyone });
  await schedulePolling(kind, input.ident);
  return { entry: entryRecord(entry, source) };
}

/** Forgets a source no guild watches any more; its job then finds nothing and ends. */
export async function dropUnwatchedSource(kind: Kind, ident: string): Promise<boolean> {
  if ((await watchersOf(kind, ident)).length > 0) return false;
  const source = await getSource(kind, ident);
  if (source) await deleteSource(source);
  const { job, key } = pollJob(kind, ident);
  if (kind !== 'stream') await cancel(job, key);
  return true;
}

/** Deletes the identifier's entries in every channel of the guild; answers the newest and all of them. */
export async function deleteEntry(guildId: string, kind: Kind, ident: string, identifier: string) {
  await requireEnabled(guildId, MODULE);
  const entries = await entriesOf(guildId, kind, ident);
  if (entries.length === 0) throw notFound(`Guild ${guildId} does not watch the ${shownSource(kind, identifier)}.`);
  const records = await entryRecords(entries);
  await deleteEntries(entries);
  await deleteWatchers(
    kind,
    ident,
    entries.map((e) => ({ guild_id: e.guild_id, channel_id: e.target_channel_id })),
  );
  await giveEntrySlots(guildId, kind, entries.length);
  await dropUnwatchedSource(kind, ident);
  return { entry: records[0], entries: records };
}
