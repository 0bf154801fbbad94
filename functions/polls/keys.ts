/**
 * Every key the polls module writes, spelled once.
 *
 * - The poll: guild partition `G#<guild>`, sort key `POLL#<poll_id>`.
 * - Its message: a pointer item `POLLMSG#<channel>#<message>` in the guild
 *   partition holding `poll_id`, written with a condition, so a vote or a
 *   deleted message finds its poll by a strongly consistent read of a key
 *   the caller can compute (an index would be eventually consistent).
 * - Its place in the guild's list: a pointer item
 *   `POLLAT#<created_at>#<id>#<poll_id>` in the guild partition, so a page
 *   of the list, newest first, is one Query with a limit (poll IDs are
 *   random, so the polls' own keys have no order).
 * - Voters: one item per member and poll, in the poll's own partition
 *   `POLLVOTES#<guild>#<poll_id>`, sort key `VOTER#<member>`, so a burst of
 *   votes spreads over items and counting is one query.
 * - A deleted poll's voters removed behind the delete (behaviour §15): the
 *   removal's place `SWEEP` in the voters' partition.
 * - Due work (close, delete, message refresh, voter sweep) in the shared
 *   scheduler, keyed `<guild>#<poll_id>`.
 */
import { entity, partition } from '#shared/db/entity.js';
import { guildKey } from '#shared/modules/store.js';
import type { AnswerTypeValue, MemberVotes, Poll, AnswerOption, PollCounts, PollStatus, PollTypeValue, Voter } from './model.js';
import { PollJobs, VOTER_SWEEP_JOB } from './jobs.js';

export { PollJobs, VOTER_SWEEP_JOB };

const nullable = <T>(value: unknown, of: (value: unknown) => T): T | null => (value === null || value === undefined ? null : of(value));

/** The fields a poll item may lack (older polls, or never set). */
const OPTIONAL_FIELDS = ['closed_at', 'closing_at', 'closing_delete_at', 'language', 'auto_delete', 'rendered_hash', 'rendered_seq', 'rendered_at'] as const;

/**
 * The counts a poll item keeps (behaviour §15): per answer `count_<id>`
 * (votes) and `members_<id>` (members voting for it), `vote_total`,
 * `voter_total`, all changed by ADD in each vote's transaction, with
 * `vote_seq` counting the votes written; `counted` marks a poll whose counts
 * are complete (new polls from the start, older ones once counted).
 */
export const countAttributes = {
  votes: (answerId: number) => `count_${answerId}`,
  members: (answerId: number) => `members_${answerId}`,
  total: 'vote_total',
  voters: 'voter_total',
  seq: 'vote_seq',
  counted: 'counted',
} as const;

function countsIn(item: Record<string, unknown>, answers: readonly AnswerOption[]): PollCounts {
  const n = (name: string) => Number(item[name] ?? 0);
  return {
    votes: Object.fromEntries(answers.map((a) => [a.answer_id, n(countAttributes.votes(a.answer_id))])),
    members: Object.fromEntries(answers.map((a) => [a.answer_id, n(countAttributes.members(a.answer_id))])),
    total: n(countAttributes.total),
    voters: n(countAttributes.voters),
  };
}

export const PollEntity = entity({
  name: 'poll',
  prefix: 'POLL#',
  pk: (f: { guildId: string }) => guildKey(f.guildId),
  sk: (f: { guildId: string; pollId: string }) => [f.pollId],
  parse: (item): Poll => {
    const poll: Poll = {
      id: Number(item.id),
      guild_id: String(item.guild_id),
      poll_id: String(item.poll_id),
      channel_id: String(item.channel_id),
      message_id: nullable(item.message_id, String),
      poll_type: Number(item.poll_type) as PollTypeValue,
      poll_answer_type: nullable(item.poll_answer_type, (v) => Number(v) as AnswerTypeValue),
      question: String(item.question),
      description: nullable(item.description, String),
      is_multi_select: item.is_multi_select === true,
      is_anonymous: item.is_anonymous === true,
      max_votes_per_answer: Number(item.max_votes_per_answer),
      poll_owner_id: nullable(item.poll_owner_id, String),
      sent_by_service: item.sent_by_service === true,
      status: item.status as PollStatus,
      end_time: Number(item.end_time),
      delete_at: nullable(item.delete_at, Number),
      edited_with_results: item.edited_with_results === true,
      created_at: String(item.created_at),
      answers: item.answers as AnswerOption[],
      version: Number(item.version),
    };
    for (const field of OPTIONAL_FIELDS) if (item[field] !== undefined) Object.assign(poll, { [field]: item[field] });
    if (item.counted === true) poll.counts = countsIn(item, poll.answers);
    if (item[countAttributes.seq] !== undefined) poll.vote_seq = Number(item[countAttributes.seq]);
    return poll;
  },
});

/** Voters: one item per member and poll, in the poll's own partition. */
export const votersPartition = partition<[guildId: string, pollId: string]>('POLLVOTES#');
export const VoterEntity = entity({
  name: 'poll_voter',
  prefix: 'VOTER#',
  pk: (f: { guildId: string; pollId: string }) => votersPartition(f.guildId, f.pollId),
  sk: (f: { guildId: string; pollId: string; memberId: string }) => [f.memberId],
  parse: (item): Voter => ({ member_id: String(item.member_id), votes: (item.votes as MemberVotes | undefined) ?? {}, version: Number(item.version ?? 0) }),
});

/** The voter sweep's place item's name, a constant so the sweep's declaration reads no property (lifecycle.ts). */
export const VOTER_SWEEP_ENTITY = 'poll_voter_sweep';

/** The removal of a deleted poll's voters (`shared/scheduler/removal.ts`): its cutoff and place, beside the voters. */
export const VoterSweepEntity = entity({
  name: VOTER_SWEEP_ENTITY,
  prefix: 'SWEEP',
  pk: (f: { guildId: string; pollId: string }) => votersPartition(f.guildId, f.pollId),
  parse: (item) => item,
});

/** The pointer from a poll's message to the poll (`poll_id`). */
export const PollMessageEntity = entity({
  name: 'poll_message',
  prefix: 'POLLMSG#',
  pk: (f: { guildId: string }) => guildKey(f.guildId),
  sk: (f: { guildId: string; channelId: string; messageId: string }) => [f.channelId, f.messageId],
  parse: (item) => String(item.poll_id),
});

/** A poll's key in the scheduler. Guild IDs are digits, so the first `#` splits it. */
export const dueKeyOf = (guildId: string, pollId: string) => `${guildId}#${pollId}`;

export function parseDueKey(key: string): { guildId: string; pollId: string } | null {
  const at = key.indexOf('#');
  if (at <= 0) return null;
  return { guildId: key.slice(0, at), pollId: key.slice(at + 1) };
}

/** A poll's list pointer as read: the fields of its key (read from the sort key) and the sort key itself, where a reading continues after it. */
export interface ListedPoll {
  guildId: string;
  createdAt: string;
  id: number;
  pollId: string;
  place: string;
}

/** A poll's place in the guild's list, newest first when read backwards: its creation time, then its record id (padded, so it sorts as a number). */
export const PollListEntity = entity({
  name: 'poll_listed',
  prefix: 'POLLAT#',
  pk: (f: { guildId: string }) => guildKey(f.guildId),
  sk: (f: { guildId: string; createdAt: string; id: number; pollId: string }) => [f.createdAt, String(f.id).padStart(16, '0'), f.pollId],
  parse: (item): ListedPoll => {
    // Creation times (ISO 8601), record ids and poll IDs hold no `#`.
    const place = String(item.sk);
    const [createdAt = '', id = '0'] = place.slice('POLLAT#'.length).split('#');
    return { guildId: String(item.pk).slice(guildKey.prefix.length), createdAt, id: Number(id), pollId: String(item.poll_id), place };
  },
});

/** The list pointer fields of a poll. */
export const listedFields = (poll: Pick<Poll, 'guild_id' | 'created_at' | 'id' | 'poll_id'>) => ({
  guildId: poll.guild_id,
  createdAt: poll.created_at,
  id: poll.id,
  pollId: poll.poll_id,
});
