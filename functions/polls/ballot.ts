/**
 * What one vote does to one member's votes on a poll (behaviour §7): `add` on
 * a single-select poll moves the member's vote to the answer,
 * `max_votes_per_answer` caps the member's votes on one answer, `remove`
 * drops one vote. Pure, so the concurrency loop around it can retry freely.
 */
import type { MemberVotes, Poll, AnswerOption } from './model.js';
import { emojiIdentity } from './rules.js';

export type VoteAction = 'add' | 'remove';

/** The member's votes after the action, or the reason it is refused (422). */
export function nextVotes(
  poll: Pick<Poll, 'is_multi_select' | 'max_votes_per_answer'>,
  current: MemberVotes,
  action: VoteAction,
  answer: Pick<AnswerOption, 'answer_id' | 'answer_text'>,
): MemberVotes | { problem: string } {
  const key = String(answer.answer_id);
  const have = current[key] ?? 0;
  if (action === 'remove') {
    if (have === 0) return { problem: `The member has no vote on answer ${answer.answer_id} ('${answer.answer_text}') to remove.` };
    const next = { ...current };
    if (have === 1) delete next[key];
    else next[key] = have - 1;
    return next;
  }
  if (have >= poll.max_votes_per_answer) {
    return {
      problem: `The member already gave answer ${answer.answer_id} ('${answer.answer_text}') ${have === 1 ? 'their vote' : `${have} votes`}; this poll allows ${poll.max_votes_per_answer} per answer.`,
    };
  }
  // Single-select: the vote moves here, leaving every other answer.
  return poll.is_multi_select ? { ...current, [key]: have + 1 } : { [key]: have + 1 };
}

/** The answer a vote names: by ID, else by emoji (a custom one by its ID, a unicode one by its text). */
export function findAnswer(
  poll: Pick<Poll, 'answers'>,
  by: { answerId: number | null; emojiName: string | null; emojiId: string | null },
): AnswerOption | null {
  if (by.answerId !== null) return poll.answers.find((a) => a.answer_id === by.answerId) ?? null;
  if (by.emojiId) return poll.answers.find((a) => a.emoji_id === by.emojiId) ?? null;
  if (!by.emojiName) return null;
  const wanted = emojiIdentity(by.emojiName, null);
  return poll.answers.find((a) => a.emoji_name !== null && a.emoji_id === null && emojiIdentity(a.emoji_name, null) === wanted) ?? null;
}
