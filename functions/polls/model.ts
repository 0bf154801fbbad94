/**
 * What a poll is, as the use cases see it, and the record the API answers
 * (behaviour §6: exactly those fields).
 */

/** `1` a platform-native poll, `2` the service's own message. */
export const PollType = { Native: 1, Service: 2 } as const;
export type PollTypeValue = (typeof PollType)[keyof typeof PollType];
/** What each `poll_type` means, as the document says it. */
export const POLL_TYPE_MEANINGS: Record<PollTypeValue, string> = {
  1: "platform-native poll: the platform's own poll message, which counts the votes (question <= 300, 1..10 answers of <= 55 characters, 1 hour to 32 days)",
  2: 'service poll: a message the service posts and renders, whose votes the service counts (1..25 answers)',
};

/** How members vote on a service poll: reactions, buttons or a dropdown. */
export const AnswerType = { Emoji: 1, Buttons: 2, Dropdown: 3 } as const;
export type AnswerTypeValue = (typeof AnswerType)[keyof typeof AnswerType];
/** What each `poll_answer_type` means (service polls only). */
export const ANSWER_TYPE_MEANINGS: Record<AnswerTypeValue, string> = {
  1: 'emoji reactions: members vote by reacting with an answer emoji (at most 20 answers)',
  2: 'buttons: one button per answer',
  3: 'dropdown: one select menu listing the answers',
};

export type PollStatus = 'open' | 'closed';

/** Whether a close is under way: still `open`, but taking no votes or edits (see `closing_at`). */
export const isClosing = (poll: Pick<Poll, 'status' | 'closing_at'>) => poll.status === 'open' && (poll.closing_at ?? 0) > 0;
/** Whether the poll takes no more votes or edits: closed, or closing. */
export const isShut = (poll: Pick<Poll, 'status' | 'closing_at'>) => poll.status === 'closed' || isClosing(poll);

/** One answer option of a poll as stored (not the HTTP answer, `PollAnswer` in schemas.ts); `answer_id` counts from 1 in the order given (as native polls number them). */
export interface AnswerOption {
  answer_id: number;
  answer_text: string;
  label: string | null;
  description: string | null;
  emoji_name: string | null;
  emoji_id: string | null;
}

/** A poll as stored in its item. Times are epoch milliseconds; the record shows them as ISO strings. */
export interface Poll {
  id: number;
  guild_id: string;
  poll_id: string;
  channel_id: string;
  message_id: string | null;
  poll_type: PollTypeValue;
  poll_answer_type: AnswerTypeValue | null;
  question: string;
  description: string | null;
  is_multi_select: boolean;
  is_anonymous: boolean;
  max_votes_per_answer: number;
  /** null once the owner asked to be forgotten (privacy). */
  poll_owner_id: string | null;
  sent_by_service: boolean;
  status: PollStatus;
  end_time: number;
  delete_at: number | null;
  edited_with_results: boolean;
  created_at: string;
  answers: AnswerOption[];
  closed_at?: number | null;
  /**
   * A close under way (epoch ms; 0 or absent: none): votes and edits are
   * refused, the poll still reads `open`, and the render that shows the
   * results writes `status` closed, `closed_at` (this), `delete_at`
   * (`closing_delete_at`) and `edited_with_results` in one write.
   */
  closing_at?: number | null;
  closing_delete_at?: number | null;
  /** Given by the bot on `handler/create`; kept, not shown. */
  language?: string | null;
  auto_delete?: number | null;
  /** Bumped by every change of the poll's own fields. */
  version: number;
  /** Hash of what the poll's message shows, so an unchanged render is not sent again. */
  rendered_hash?: string | null;
  /** Votes written on the poll so far (`vote_seq`, raised by each vote's transaction); absent before the first. */
  vote_seq?: number;
  /** The `vote_seq` the message showed at its last render, and when that render ended (epoch ms): how fast votes come. */
  rendered_seq?: number;
  rendered_at?: number;
  /** The counts the poll item keeps, changed by every vote in the same transaction as the voter item; absent on polls stored before counts were kept. */
  counts?: PollCounts;
}

/** A poll's counts as its item keeps them (behaviour §15): exact, read with the poll, never by reading its voters. */
export interface PollCounts {
  /** Votes per answer ID. */
  votes: Record<number, number>;
  /** Members with at least one vote, per answer ID. */
  members: Record<number, number>;
  /** Votes in all. */
  total: number;
  /** Members with at least one vote. */
  voters: number;
}

/**
 * Up to this many votes in all, a poll record lists its voter IDs in
 * `answers[].votes`; above, `null` and the voters are paged from
 * `/entry/{poll_id}/voters` (behaviour §15: a page of 100 polls listing 200
 * votes each stays well under 1 MiB).
 */
export const LISTED_VOTES = 200;

/** One member's votes on one poll: answer ID -> how many votes (more than 1 only with max_votes_per_answer > 1). */
export type MemberVotes = Record<string, number>;

export interface Voter {
  member_id: string;
  votes: MemberVotes;
  version: number;
}

/** Counts and voters per answer, as a record or a message shows them. */
export interface Tally {
  counts: Map<number, number>;
  /** Voter IDs per answer, one entry per vote, in member order; null when the poll is too large to list them (LISTED_VOTES). */
  voters: Map<number, string[]> | null;
  total: number;
}

/** A poll as an operation left it, with the counts it read on the way when it read them, so its answer needs no second read. */
export interface PollNow {
  poll: Poll;
  tally?: Tally;
}

/** Adds up voter items. */
export function tallyOf(poll: Pick<Poll, 'answers'>, voters: readonly Voter[]): Tally {
  const counts = new Map<number, number>(poll.answers.map((a) => [a.answer_id, 0]));
  const lists = new Map<number, string[]>(poll.answers.map((a) => [a.answer_id, []]));
  let total = 0;
  for (const voter of voters) {
    for (const [answer, n] of Object.entries(voter.votes)) {
      const id = Number(answer);
      if (!counts.has(id) || n <= 0) continue;
      counts.set(id, counts.get(id)! + n);
      for (let i = 0; i < n; i++) lists.get(id)!.push(voter.member_id);
      total += n;
    }
  }
  return { counts, voters: lists, total };
}

/** The counts of a poll's voter items (polls stored before counts were kept get theirs from this once). */
export function countsOf(poll: Pick<Poll, 'answers'>, voters: readonly Voter[]): PollCounts {
  const counts: PollCounts = { votes: {}, members: {}, total: 0, voters: 0 };
  for (const answer of poll.answers) {
    counts.votes[answer.answer_id] = 0;
    counts.members[answer.answer_id] = 0;
  }
  for (const voter of voters) {
    const change = countChange({}, voter.votes);
    for (const [answer, n] of Object.entries(change.votes)) counts.votes[Number(answer)] = (counts.votes[Number(answer)] ?? 0) + n;
    for (const [answer, n] of Object.entries(change.members)) counts.members[Number(answer)] = (counts.members[Number(answer)] ?? 0) + n;
    counts.total += change.total;
    counts.voters += change.voters;
  }
  return counts;
}

/** What a member's change of votes does to the poll's counts (the deltas; answers left unchanged are left out). */
export function countChange(before: MemberVotes, after: MemberVotes): PollCounts {
  const change: PollCounts = { votes: {}, members: {}, total: 0, voters: 0 };
  for (const answer of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const [was, now] = [before[answer] ?? 0, after[answer] ?? 0];
    if (now !== was) change.votes[Number(answer)] = now - was;
    const member = Number(now > 0) - Number(was > 0);
    if (member !== 0) change.members[Number(answer)] = member;
    change.total += now - was;
  }
  change.voters = Number(votesIn(after) > 0) - Number(votesIn(before) > 0);
  return change;
}

/** The tally of a poll from its stored counts alone: no voter IDs. */
export function countedTally(poll: Pick<Poll, 'answers'>, counts: PollCounts): Tally {
  return { counts: new Map(poll.answers.map((a) => [a.answer_id, counts.votes[a.answer_id] ?? 0])), voters: null, total: counts.total };
}

/** How many votes a member's votes hold in all. */
export const votesIn = (votes: MemberVotes) => Object.values(votes).reduce((sum, n) => sum + n, 0);

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * The poll record the API answers (behaviour §6); voters are hidden on
 * anonymous polls, counts are not, and above LISTED_VOTES votes are null
 * (behaviour §15).
 */
export function pollRecord(poll: Poll, tally: Tally) {
  return {
    id: poll.id,
    guild_id: poll.guild_id,
    poll_id: poll.poll_id,
    channel_id: poll.channel_id,
    message_id: poll.message_id,
    poll_type: poll.poll_type,
    poll_answer_type: poll.poll_answer_type,
    question: poll.question,
    description: poll.description,
    is_multi_select: poll.is_multi_select,
    is_anonymous: poll.is_anonymous,
    max_votes_per_answer: poll.max_votes_per_answer,
    poll_owner_id: poll.poll_owner_id,
    sent_by_service: poll.sent_by_service,
    status: poll.status,
    end_time: new Date(poll.end_time).toISOString(),
    delete_at: iso(poll.delete_at),
    edited_with_results: poll.edited_with_results,
    created_at: poll.created_at,
    answers: poll.answers.map((answer) => ({
      answer_id: answer.answer_id,
      answer_text: answer.answer_text,
      label: answer.label,
      description: answer.description,
      emoji_name: answer.emoji_name,
      emoji_id: answer.emoji_id,
      vote_count: tally.counts.get(answer.answer_id) ?? 0,
      votes: poll.is_anonymous ? [] : tally.voters === null ? null : [...(tally.voters.get(answer.answer_id) ?? [])],
    })),
  };
}
