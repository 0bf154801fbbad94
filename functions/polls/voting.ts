/**
 * Votes (`/entry/vote`, `/handler/vote`). Each member's votes on a poll are
 * one voter item guarded by its version: a vote reads it, computes the next
 * votes, and writes them only if nobody changed the item meanwhile; a lost
 * race reads again. So 100 members voting at once are all counted (100
 * items), and a dozen votes of one member at once end as that member's one
 * state. The poll's counts change in the same transaction as the voter
 * item, conditional on the poll being open (behaviour §15), so they stay
 * exact; the message follows through a coalesced refresh.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { databaseFailed, notFound, unprocessable } from '#shared/errors.js';
import { assertEnabled, requireEnabled, requireEnabledWith } from '#shared/modules/state.js';
import { emit } from '#shared/observe/emit.js';
import { platform } from '#shared/platform/client.js';
import { dueItemKey } from '#shared/scheduler/keys.js';
import { type DueItem, runWillFollow } from '#shared/scheduler/index.js';
import { type VoteAction, findAnswer, nextVotes } from './ballot.js';
import { PollJobs, PollMessageEntity, dueKeyOf } from './keys.js';
import { requestRefresh } from './refresh-request.js';
import { AnswerType, type MemberVotes, type Poll, type AnswerOption, PollType, type Voter, isShut } from './model.js';
import { getPoll, getVoteContext, getVoter, writeVoter } from './store.js';

/** A dozen votes of one member at once settle within a dozen rounds; far more means the table is struggling. */
const MAX_ATTEMPTS = 40;

export interface VoteInput {
  guildId: string;
  memberId: string;
  action: VoteAction;
  /** The poll by ID, or else by its message in a channel. */
  pollId: string | null;
  channelId: string | null;
  messageId: string | null;
  /** The answer by ID, or else by emoji. */
  answerId: number | null;
  emojiName: string | null;
  emojiId: string | null;
}

export interface VoteOutcome {
  poll: Poll;
  answer: AnswerOption;
  before: MemberVotes;
  after: MemberVotes;
}

/** The poll voted on; by ID, also the member's voter item and the pending refresh, read in the same request. */
interface Resolved {
  poll: Poll;
  voter?: Voter | null;
  refresh?: DueItem | null;
}

async function resolvePoll(input: VoteInput): Promise<Resolved> {
  let poll: Poll | null = null;
  if (input.pollId !== null) {
    const refreshKey = dueItemKey(PollJobs.refresh, dueKeyOf(input.guildId, input.pollId));
    const found = await getVoteContext(input.guildId, input.pollId, input.memberId, refreshKey);
    assertEnabled(input.guildId, 'polls', found.state);
    if (!found.poll) throw notFound(`There is no poll ${input.pollId} in guild ${input.guildId}.`);
    return { poll: found.poll, voter: found.voter, refresh: found.refresh };
  }
  if (input.channelId && input.messageId) {
    // The module state with the message's pointer, then the poll it names.
    const pointer = await requireEnabledWith(input.guildId, 'polls', PollMessageEntity, {
      guildId: input.guildId,
      channelId: input.channelId,
      messageId: input.messageId,
    });
    poll = pointer ? await getPoll(input.guildId, pointer) : null;
  } else {
    await requireEnabled(input.guildId, 'polls');
  }
  if (!poll) throw notFound(`There is no poll on message ${input.messageId} in channel ${input.channelId} of guild ${input.guildId}.`);
  return { poll };
}

/** Applies the action to the member's voter item until its conditional write wins; `known` is the item as read with the poll. */
async function applyVote(
  poll: Poll,
  memberId: string,
  action: VoteAction,
  answer: AnswerOption,
  known: Voter | null | undefined,
): Promise<{ before: MemberVotes; after: MemberVotes }> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    // Most adds are a member's first vote on a poll: without the item at hand, try that without a read, read on a lost race.
    const voter =
      attempt === 0 && known !== undefined ? known : attempt === 0 && action === 'add' ? null : await getVoter(poll.guild_id, poll.poll_id, memberId);
    const before = voter?.votes ?? {};
    const after = nextVotes(poll, before, action, answer);
    if ('problem' in after) throw unprocessable(after.problem as string);
    const written = await writeVoter(poll.guild_id, poll.poll_id, memberId, voter, after, true);
    if (written === 'done') return { before, after };
    if (written === 'refused') {
      // The poll closed, or went, since it was read: the vote changed nothing.
      if (await getPoll(poll.guild_id, poll.poll_id)) throw unprocessable(`Poll ${poll.poll_id} is closed; it takes no more votes.`);
      throw notFound(`There is no poll ${poll.poll_id} in guild ${poll.guild_id}.`);
    }
    await sleep(Math.random() * Math.min(200, 5 * 2 ** Math.min(attempt, 6)));
  }
  throw databaseFailed(`The votes of member ${memberId} on poll ${poll.poll_id} kept changing while being saved; try again.`);
}

/** A single-select emoji poll moved the member's vote: their reactions on the answers they left go too. */
async function dropLeftReactions(poll: Poll, memberId: string, before: MemberVotes, after: MemberVotes): Promise<void> {
  if (poll.poll_type !== PollType.Service || poll.poll_answer_type !== AnswerType.Emoji || !poll.message_id) return;
  const left = poll.answers.filter((a) => before[String(a.answer_id)] && !after[String(a.answer_id)] && a.emoji_name);
  await Promise.all(
    left.map((a) => platform.deleteUserReaction(poll.channel_id, poll.message_id!, { name: a.emoji_name!, id: a.emoji_id }, memberId).catch(() => undefined)),
  );
}

/** A member votes: 409 while disabled, 404 for no such poll, 422 for a closed poll, an unknown answer or a broken rule. */
export async function vote(input: VoteInput): Promise<VoteOutcome> {
  const { poll, voter, refresh } = await resolvePoll(input);
  // Closing too: the results being shown are final (CONTRACT 16).
  if (isShut(poll)) throw unprocessable(`Poll ${poll.poll_id} is closed; it takes no more votes.`);
  const answer = findAnswer(poll, input);
  if (!answer) {
    const named = input.answerId !== null ? `answer_id ${input.answerId}` : `emoji '${input.emojiName ?? input.emojiId}'`;
    throw unprocessable(`Poll ${poll.poll_id} has no answer with ${named}; its answers are ${poll.answers.map((a) => a.answer_id).join(', ')}.`);
  }
  const { before, after } = await applyVote(poll, input.memberId, input.action, answer, voter);
  emit({ votes: 1 });
  await Promise.all([
    poll.poll_type === PollType.Service && !runWillFollow(refresh ?? null) ? requestRefresh(poll.guild_id, poll.poll_id, refresh) : Promise.resolve(),
    input.action === 'add' && !poll.is_multi_select ? dropLeftReactions(poll, input.memberId, before, after) : Promise.resolve(),
  ]);
  return { poll, answer, before, after };
}

/**
 * What a vote answers: the member's votes on the poll after it (answer IDs,
 * one entry per vote). Not the whole poll: GET the poll for its counts (the
 * message shows them within seconds anyway).
 */
export function voteRecord(outcome: VoteOutcome, memberId: string, action: VoteAction) {
  const votes = outcome.poll.answers.flatMap((a) => Array<number>(outcome.after[String(a.answer_id)] ?? 0).fill(a.answer_id));
  return { poll_id: outcome.poll.poll_id, member_id: memberId, action, answer_id: outcome.answer.answer_id, votes };
}

/** What the member is told about their vote. */
export function describeVote(outcome: VoteOutcome, action: VoteAction): string {
  const text = `**${outcome.answer.answer_text}**`;
  if (action === 'remove') return `Your vote for ${text} was removed.`;
  const left = outcome.poll.answers.filter((a) => outcome.before[String(a.answer_id)] && !outcome.after[String(a.answer_id)]);
  if (left.length > 0) return `Your vote moved from ${left.map((a) => `**${a.answer_text}**`).join(', ')} to ${text}.`;
  return `Your vote for ${text} was counted.`;
}
