/**
 * A giveaway's entrants in the table (behaviour §12 and §15): one item per
 * entrant, in a partition of the giveaway's own (`GENTRANTS#<guild>#<entry>`),
 * its sort key the member ID padded to 20 digits, so a Query reads them in
 * numeric order, the order the draw sorts them in, a page at a time.
 *
 * Entering is one TransactWriteItems: the entrant's item put if absent and
 * the giveaway's `participant_count` raised if entries are open (running,
 * not closed by the end, before `end_time`), both or neither. That single atomic request keeps the two invariants (one entry a
 * member; entries only while running) and the exact count together, with no
 * read before the write; leaving is the same with a delete. A partition a
 * giveaway holds alone also keeps a rush of entrants off the guild's other
 * items. A giveaway's item holds up to 400 KB; these partitions have no
 * such limit, so a giveaway takes millions of entrants.
 *
 * Giveaways stored before held their entrants in the giveaway item's string
 * set `participants`; they keep working: an enter is refused for a member in
 * that set (a condition of the same transaction), a leave takes a member out
 * of it, and the set is moved into items before anything pages the list
 * (`moveLegacyEntrants`).
 */
import type { Condition } from '#shared/db/expression.js';
import { entity, partition } from '#shared/db/entity.js';
import { transact } from '#shared/db/transact.js';
import { GiveawayEntity, entriesOpen, openAt } from './store.js';

const entrantsKey = partition<[guildId: string, entryId: string]>('GENTRANTS#');
const ID_DIGITS = 20;
const padded = (memberId: string) => memberId.padStart(ID_DIGITS, '0');
const PREFIX = 'ENTRANT#';
const unpadded = (sk: string): string => sk.slice(PREFIX.length).replace(/^0+(?=\d)/, '');

export const EntrantEntity = entity({
  name: 'giveaway-entrant',
  prefix: PREFIX,
  pk: (f: { guildId: string; entryId: string }) => entrantsKey(f.guildId, f.entryId),
  sk: (f: { guildId: string; entryId: string; memberId: string }) => [padded(f.memberId)],
  parse: (item) => unpadded(String(item.sk)),
});

/** Why an enter or leave was refused: the giveaway's state, or the member's. */
export type EntryChange = 'done' | 'not-running' | 'already' | 'not-entered' | 'gone';

const BUSY = 'The giveaway is busy with other entries at this moment; try again shortly.';

/** While entries are open now, when `whileRunning`; else no condition. */
const openNow = (whileRunning: boolean): Condition[] => (whileRunning ? [openAt(new Date().toISOString())] : []);

const countChange = (guildId: string, entryId: string, by: 1 | -1, memberId: string, whileRunning: boolean) =>
  GiveawayEntity.tx.update(
    { guildId, entryId },
    {
      add: { participant_count: by },
      condition: {
        $and: [
          { pk: { exists: true } },
          ...openNow(whileRunning),
          // An entrant of the old layout is in the set: entering again is refused there.
          ...(by === 1 ? [{ $not: { participants: { contains: memberId } } }] : []),
        ],
      },
    },
  );

/** One member enters: one atomic conditional request, the entrant's item and the count. */
export async function addEntrant(guildId: string, entryId: string, memberId: string): Promise<EntryChange> {
  const failed = await transact(
    [
      EntrantEntity.tx.put({ guildId, entryId, memberId }, { entered_at: new Date().toISOString() }, { ifAbsent: true }),
      countChange(guildId, entryId, 1, memberId, true),
    ],
    BUSY,
  );
  if (failed === null) return 'done';
  return failed === 0 ? 'already' : whyRefused(guildId, entryId, true);
}

const entrantLeaves = (guildId: string, entryId: string, memberId: string) =>
  EntrantEntity.tx.delete({ guildId, entryId, memberId }, { condition: { pk: { exists: true } } });

/** One member leaves: one atomic conditional request; a member of the old layout's set leaves it by one conditional update. */
export async function removeEntrant(guildId: string, entryId: string, memberId: string): Promise<EntryChange> {
  const failed = await transact([entrantLeaves(guildId, entryId, memberId), countChange(guildId, entryId, -1, memberId, true)], BUSY);
  if (failed === null) return 'done';
  if (failed === 0 && (await leaveLegacy(guildId, entryId, memberId, true))) return 'done';
  return whyRefused(guildId, entryId, false);
}

const leaveLegacy = (guildId: string, entryId: string, memberId: string, whileRunning: boolean) =>
  GiveawayEntity.update(
    { guildId, entryId },
    {
      delete: { participants: new Set([memberId]) },
      add: { participant_count: -1 },
      condition: { $and: [{ participants: { contains: memberId } }, ...openNow(whileRunning)] },
      returnValues: 'NONE',
    },
  );

async function whyRefused(guildId: string, entryId: string, entering: boolean): Promise<EntryChange> {
  const g = await GiveawayEntity.get({ guildId, entryId });
  if (!g) return 'gone';
  // Closed by the end or past end_time: refused as after the end, with the same words.
  if (!entriesOpen(g, Date.now())) return 'not-running';
  return entering ? 'already' : 'not-entered';
}

/** Takes a member out of a giveaway's entrants, whatever its state (privacy); true when they were one. */
export async function dropEntrant(guildId: string, entryId: string, memberId: string): Promise<boolean> {
  const failed = await transact([entrantLeaves(guildId, entryId, memberId), countChange(guildId, entryId, -1, memberId, false)], BUSY);
  return failed === null || leaveLegacy(guildId, entryId, memberId, false);
}

/** Which of these giveaways the member has entered (items only; the old layout's sets are read with the giveaway). */
export async function enteredOf(guildId: string, entryIds: readonly string[], memberId: string): Promise<Set<string>> {
  const found = await EntrantEntity.getMany(entryIds.map((entryId) => ({ guildId, entryId, memberId })));
  return new Set(entryIds.filter((_, i) => found[i] !== null));
}

/** Entrants in numeric order from after member `after` (null: from the start), `count` of them at most. */
export const entrantsFrom = (guildId: string, entryId: string, after: string | null, count: number): Promise<string[]> =>
  EntrantEntity.query(
    { guildId, entryId },
    { limit: count, ...(after === null ? {} : { after: EntrantEntity.key({ guildId, entryId, memberId: after }).sk }) },
  );

/** Every entrant in numeric order (a reroll's pool; a page at a time). */
export const allEntrants = (guildId: string, entryId: string) => entrantsFrom(guildId, entryId, null, Number.MAX_SAFE_INTEGER);

/**
 * Moves an old-layout giveaway's string set into entrant items, then drops
 * the set (conditional on the set as read, so a leave meanwhile is not
 * undone). Safe to repeat: the items are the same items.
 */
export async function moveLegacyEntrants(guildId: string, entryId: string, legacy: readonly string[]): Promise<boolean> {
  if (legacy.length === 0) return true;
  await EntrantEntity.putMany(legacy.map((memberId) => [{ guildId, entryId, memberId }, { entered_at: null }]));
  return GiveawayEntity.update(
    { guildId, entryId },
    { remove: ['participants'], condition: { participants: { size: { eq: legacy.length } } }, returnValues: 'NONE' },
  );
}

/** Deletes up to `max` of a giveaway's entrant items; true when none are left. */
export async function purgeEntrants(guildId: string, entryId: string, max: number): Promise<boolean> {
  const memberIds = await EntrantEntity.query({ guildId, entryId }, { limit: max });
  await EntrantEntity.deleteMany(memberIds.map((memberId) => ({ guildId, entryId, memberId })));
  return memberIds.length < max;
}
