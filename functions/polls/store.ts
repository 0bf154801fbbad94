/**
 * The polls module's stored items and the operations on them (through its entities).
 * Every change is one conditional write: a poll's fields under its `version`, a member's
 * votes under their voter item's `version` with the poll's counts in the same transaction, the message render under a lease
 * on the poll item. Beside each poll, its list pointer (`PollListEntity`),
 * written after it and deleted after it.
 */
import { getNamed } from '#shared/db/batch.js';
import type { Key } from '#shared/db/entity.js';
import type { Condition } from '#shared/db/expression.js';
import { transact } from '#shared/db/transact.js';
import { type ModuleStateItem, moduleStateKey } from '#shared/modules/store.js';
import type { DueItem } from '#shared/scheduler/index.js';
import { type ListedPoll, PollEntity, PollListEntity, PollMessageEntity, VoterEntity, countAttributes, listedFields } from './keys.js';
import { type MemberVotes, type Poll, type PollCounts, type Voter, countChange, countsOf } from './model.js';

export const getPoll = (guildId: string, pollId: string) => PollEntity.get({ guildId, pollId });

/**
 * Everything a vote on a known poll decides on, in one batch read: the
 * module state, the poll, the member's voter item (so the vote's conditional
 * write goes first time, a moved vote too) and the poll's pending message
 * refresh (a vote landing well before it runs needs not ask for another).
 */
export async function getVoteContext(
  guildId: string,
  pollId: string,
  memberId: string,
  refreshKey: Key,
): Promise<{ state: ModuleStateItem | null; poll: Poll | null; voter: Voter | null; refresh: DueItem | null }> {
  const found = await getNamed({
    state: moduleStateKey(guildId, 'polls'),
    poll: PollEntity.key({ guildId, pollId }),
    voter: VoterEntity.key({ guildId, pollId, memberId }),
    refresh: refreshKey,
  });
  return {
    state: found.state as ModuleStateItem | null,
    poll: found.poll && PollEntity.parse(found.poll),
    voter: found.voter && VoterEntity.parse(found.voter),
    refresh: found.refresh as DueItem | null,
  };
}

/**
 * The poll whose message this is, in this guild: the message's pointer item,
 * then the poll, both read strongly consistently (a vote right after the
 * poll was posted must find it). A pointer whose poll is gone answers null.
 */
export async function findPollByMessage(guildId: string, channelId: string, messageId: string): Promise<Poll | null> {
  const pollId = await PollMessageEntity.get({ guildId, channelId, messageId });
  return pollId === null ? null : getPoll(guildId, pollId);
}

/**
 * How many polls the guild has (COUNT queries). When the polls and their
 * list pointers do not agree in number (polls stored before pointers were
 * kept, or a crash between a poll's write and its pointer's), the pointers
 * are put right first (`reconcileList`), once.
 */
export async function countPolls(guildId: string): Promise<number> {
  const [total, listed] = await Promise.all([PollEntity.count({ guildId }), PollListEntity.count({ guildId })]);
  if (total !== listed) await reconcileList(guildId);
  return total;
}

/** The guild's polls, newest first, a page of `pageSize` at a time, read by key: only as many pages as the reader takes. */
export async function* pollsNewestFirst(guildId: string, pageSize: number): AsyncGenerator<Poll[]> {
  let after: string | undefined;
  for (;;) {
    const listed: ListedPoll[] = await PollListEntity.query({ guildId }, { reverse: true, limit: pageSize, ...(after === undefined ? {} : { after }) });
    const polls = (await PollEntity.getMany(listed.map(({ pollId }) => ({ guildId, pollId })))).filter((poll) => poll !== null);
    if (polls.length) yield polls;
    if (listed.length < pageSize) return;
    after = listed.at(-1)!.place;
  }
}

/** Writes the pointers polls lack and deletes those whose poll is gone; answers how many are listed. */
async function reconcileList(guildId: string): Promise<number> {
  const [polls, pointers] = await Promise.all([PollEntity.query({ guildId }), PollListEntity.query({ guildId })]);
  const wanted = new Map(polls.map((poll) => [PollListEntity.key(listedFields(poll)).sk, poll]));
  const have = new Set(pointers.map((pointer) => pointer.place));
  await PollListEntity.putMany([...wanted].filter(([sk]) => !have.has(sk)).map(([, poll]) => listedItem(poll)));
  await PollListEntity.deleteMany(pointers.filter((pointer) => !wanted.has(pointer.place)));
  return wanted.size;
}

const listedItem = (poll: Pick<Poll, 'guild_id' | 'created_at' | 'id' | 'poll_id'>): [ReturnType<typeof listedFields>, object] => [
  listedFields(poll),
  { poll_id: poll.poll_id },
];

/** Every poll of a guild (any order). */
export const listPolls = (guildId: string) => PollEntity.query({ guildId });

/**
 * Writes a new poll; answers false when a poll with this ID exists in the
 * guild, or its message already carries another poll. The message's pointer
 * is claimed first, so two polls never share a message; a pointer left by a
 * poll that no longer exists (a crash between the two writes) is taken over.
 */
export async function insertPoll(poll: Poll): Promise<boolean> {
  if (poll.message_id && !(await claimMessage(poll.guild_id, poll.channel_id, poll.message_id, poll.poll_id))) return false;
  const { counts: _counts, ...fields } = poll;
  // A new poll's counts are complete from the start: each vote adds to them (absent attributes count 0).
  const done = await PollEntity.put({ guildId: poll.guild_id, pollId: poll.poll_id }, { ...fields, [countAttributes.counted]: true }, { ifAbsent: true });
  if (!done && poll.message_id) await releaseMessage(poll.guild_id, poll.channel_id, poll.message_id, poll.poll_id);
  // Its place in the list; a crash before this leaves the list one short, which the next page read puts right.
  if (done) await PollListEntity.put(...listedItem(poll));
  return done;
}

async function claimMessage(guildId: string, channelId: string, messageId: string, pollId: string): Promise<boolean> {
  const fields = { guildId, channelId, messageId };
  const claim = (condition: { ifAbsent: true } | { condition: Condition }) => PollMessageEntity.put(fields, { poll_id: pollId }, condition);
  if (await claim({ ifAbsent: true })) return true;
  const holder = await findPollByMessage(guildId, channelId, messageId);
  if (holder) return holder.poll_id === pollId;
  const stale = await PollMessageEntity.get(fields);
  return claim(stale === null ? { ifAbsent: true } : { condition: { poll_id: stale } });
}

/** Drops a message's pointer if it still names this poll. */
async function releaseMessage(guildId: string, channelId: string, messageId: string, pollId: string): Promise<void> {
  await PollMessageEntity.delete({ guildId, channelId, messageId }, { condition: { poll_id: pollId } });
}

/** No close under way (`Poll.closing_at`): absent, or 0 once a close by request was undone. */
const NOT_CLOSING: Condition = { $or: [{ closing_at: { exists: false } }, { closing_at: 0 }] };

/** What a conditional poll change requires of the stored poll. */
export interface PollExpectation {
  version?: number;
  status?: Poll['status'];
  /** No close under way (`closing_at` absent or 0). */
  notClosing?: boolean;
}

/**
 * Changes some of a poll's fields (null removes nothing: it stores null),
 * bumping its version; answers the new poll, or null when the poll is gone or
 * does not match `expect`.
 */
export function updatePoll(guildId: string, pollId: string, changes: Partial<Poll>, expect: PollExpectation = {}): Promise<Poll | null> {
  const { version: _version, ...set } = changes;
  return PollEntity.update(
    { guildId, pollId },
    {
      set,
      add: { version: 1 },
      condition: { $and: [{ pk: { exists: true }, version: expect.version, status: expect.status }, ...(expect.notClosing ? [NOT_CLOSING] : [])] },
    },
  );
}

/** Forgets the owner of a poll (privacy), if it is still this member. */
export const clearOwner = (guildId: string, pollId: string, memberId: string) =>
  PollEntity.update({ guildId, pollId }, { set: { poll_owner_id: null }, add: { version: 1 }, condition: { poll_owner_id: memberId }, returnValues: 'NONE' });

/**
 * Takes the poll's render lease (one writer of its message at a time).
 * Answers the poll as it is now, `'busy'` while another holds a live lease,
 * or null when the poll is gone.
 */
export async function takeRenderLease(guildId: string, pollId: string, leaseId: string, until: number, now: number): Promise<Poll | 'busy' | null> {
  const taken = await PollEntity.update(
    { guildId, pollId },
    {
      set: { render_lock: leaseId, render_until: until },
      condition: { pk: { exists: true }, $or: [{ render_until: { exists: false } }, { render_until: { lt: now } }] },
    },
  );
  if (taken) return taken;
  return (await getPoll(guildId, pollId)) ? 'busy' : null;
}

/** What a render records on the poll item as it gives the lease back. */
export type RenderChanges = Partial<
  Pick<Poll, 'rendered_hash' | 'rendered_seq' | 'rendered_at' | 'edited_with_results' | 'status' | 'closed_at' | 'delete_at'>
>;

/**
 * Gives the render lease back, recording what the message now shows (in the
 * same write); answers the poll as it is then, its `vote_seq` telling
 * whether votes came in while it rendered (null: the lease was lost).
 */
export const releaseRenderLease = (guildId: string, pollId: string, leaseId: string, changes: RenderChanges) =>
  PollEntity.update({ guildId, pollId }, { set: changes, remove: ['render_lock', 'render_until'], condition: { render_lock: leaseId } });

/** Deletes the poll item; answers what it held, or null when it was already gone. */
export async function deletePollItem(guildId: string, pollId: string): Promise<Poll | null> {
  const poll = await PollEntity.delete({ guildId, pollId }, { returnOld: true });
  if (poll?.message_id) await releaseMessage(guildId, poll.channel_id, poll.message_id, pollId);
  if (poll) await PollListEntity.delete(listedFields(poll));
  return poll;
}

export const getVoter = (guildId: string, pollId: string, memberId: string) => VoterEntity.get({ guildId, pollId, memberId });

/** What a voter write did: written, lost to another write of the member's votes, or refused by the poll (gone, or closed for a vote). */
export type VoterWrite = 'done' | 'raced' | 'refused';

const BUSY = 'The poll is busy with other votes at this moment; try again shortly.';

/**
 * Writes a member's votes (behaviour §15): one TransactWriteItems, the voter
 * item put (or deleted, for no votes) if it is still as `before` was read
 * (null: it must not exist yet), and the poll's counts changed by the
 * difference, if the poll exists (and, `whileOpen`, is open). Both or
 * neither, so the counts stay exact under any race or retry.
 */
export async function writeVoter(
  guildId: string,
  pollId: string,
  memberId: string,
  before: Voter | null,
  votes: MemberVotes,
  whileOpen: boolean,
): Promise<VoterWrite> {
  const fields = { guildId, pollId, memberId };
  if (Object.keys(votes).length === 0 && before === null) return 'done';
  const voterAction =
    before !== null && Object.keys(votes).length === 0
      ? VoterEntity.tx.delete(fields, { condition: { version: before.version } })
      : VoterEntity.tx.put(
          fields,
          { guild_id: guildId, poll_id: pollId, member_id: memberId, votes, version: (before?.version ?? 0) + 1, updated_at: new Date().toISOString() },
          before === null ? { ifAbsent: true } : { condition: { version: before.version } },
        );
  const failed = await transact([voterAction, countUpdate(guildId, pollId, countChange(before?.votes ?? {}, votes), whileOpen)], BUSY);
  return failed === null ? 'done' : failed === 0 ? 'raced' : 'refused';
}

/** The poll's side of a voter write: its counts changed by `change`, `vote_seq` raised. */
function countUpdate(guildId: string, pollId: string, change: PollCounts, whileOpen: boolean) {
  const adds: [string, number][] = [
    ...Object.entries(change.votes).map(([answer, n]) => [countAttributes.votes(Number(answer)), n] as [string, number]),
    ...Object.entries(change.members).map(([answer, n]) => [countAttributes.members(Number(answer)), n] as [string, number]),
    [countAttributes.total, change.total],
    [countAttributes.voters, change.voters],
    [countAttributes.seq, 1],
  ];
  return PollEntity.tx.update(
    { guildId, pollId },
    {
      add: Object.fromEntries(adds.filter(([, n]) => n !== 0)),
      // Open: not closed, and no close under way (its results are being shown).
      condition: whileOpen ? { pk: { exists: true }, status: 'open', ...NOT_CLOSING } : { pk: { exists: true } },
    },
  );
}

/** A poll's voter items when it has at most `max` of them (one bounded read), else null. */
export async function votersUpTo(guildId: string, pollId: string, max: number): Promise<Voter[] | null> {
  const voters = await VoterEntity.query({ guildId, pollId }, { limit: max + 1 });
  return voters.length > max ? null : voters;
}

/**
 * The counts of a poll stored before counts were kept (behaviour §15):
 * counted once from its voter items and written with `counted`, on
 * condition that no vote was written between the poll's read and the write
 * (`vote_seq` unchanged), else counted again. Answers the counts.
 */
export async function settleCounts(guildId: string, pollId: string): Promise<PollCounts | null> {
  for (let attempt = 0; ; attempt++) {
    const poll = await getPoll(guildId, pollId);
    if (!poll) return null;
    if (poll.counts) return poll.counts;
    const counts = countsOf(poll, await VoterEntity.query({ guildId, pollId }));
    if (attempt >= 4) return counts;
    const sets: [string, number][] = [
      ...poll.answers.map((a) => [countAttributes.votes(a.answer_id), counts.votes[a.answer_id] ?? 0] as [string, number]),
      ...poll.answers.map((a) => [countAttributes.members(a.answer_id), counts.members[a.answer_id] ?? 0] as [string, number]),
      [countAttributes.total, counts.total],
      [countAttributes.voters, counts.voters],
    ];
    const written = await PollEntity.update(
      { guildId, pollId },
      {
        set: { ...Object.fromEntries(sets), [countAttributes.counted]: true },
        condition: {
          pk: { exists: true },
          [countAttributes.counted]: { exists: false },
          [countAttributes.seq]: poll.vote_seq === undefined ? { exists: false } : poll.vote_seq,
        },
        returnValues: 'NONE',
      },
    );
    if (written) return counts;
  }
}

/** A member's voter items on several polls of a guild (privacy). */
export async function votersOfMember(guildId: string, pollIds: readonly string[], memberId: string): Promise<Map<string, Voter>> {
  const voters = await VoterEntity.getMany(pollIds.map((pollId) => ({ guildId, pollId, memberId })));
  return new Map(pollIds.flatMap((pollId, i) => (voters[i] ? [[pollId, voters[i]] as const] : [])));
}

/** Deletes one member's voter item (privacy), taking their votes off the poll's counts in the same transaction. */
export async function deleteVoter(guildId: string, pollId: string, memberId: string): Promise<void> {
  for (let voter = await getVoter(guildId, pollId, memberId); voter; voter = await getVoter(guildId, pollId, memberId)) {
    const outcome = await writeVoter(guildId, pollId, memberId, voter, {}, false);
    if (outcome === 'done') return;
    if (outcome === 'refused') {
      // The poll is gone: its voters go with it anyway.
      await VoterEntity.delete({ guildId, pollId, memberId });
      return;
    }
  }
}
