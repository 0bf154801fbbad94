/**
 * The polls module's use cases for polls themselves: create (post the
 * message, register the poll and its close timer), read, list, edit, close,
 * delete, and the bot's scheduling interface over the same store
 * (`handler/*`). Endpoints validate; these decide.
 */
import type { PageQuery } from '#shared/db/entity.js';
import { recordIdAhead } from '#shared/db/record-ids.js';
import { notFound, unprocessable } from '#shared/errors.js';
import { mintId } from '#shared/ids.js';
import { checkedWhile, requireEnabled, requireEnabledWhile, requireEnabledWithState } from '#shared/modules/state.js';
import { platform } from '#shared/platform/client.js';
import { cancel } from '#shared/scheduler/index.js';
import { type Interaction, tellMember } from '#shared/platform/interaction.js';
import { type Asker, requireOwner } from '#shared/auth/owner.js';
import { PollEntity, PollJobs, PollListEntity, VoterEntity, dueKeyOf } from './keys.js';
import { type PollSettings, closePoll, removePoll, scheduleClose, scheduleDelete, settingsOf, votersBeingRemoved } from './lifecycle.js';
import { type Synced, syncPollMessage } from './message.js';
import {
  AnswerType,
  type AnswerTypeValue,
  type Poll,
  type AnswerOption,
  type PollNow,
  PollType,
  type PollTypeValue,
  type Tally,
  isShut,
  pollRecord,
  tallyOf,
} from './model.js';
import { renderHash, renderNativePoll, renderPollMessage, renderProblem } from './render.js';
import { type AnswerInput, nativeHours, parseDuration } from './rules.js';
import { countPolls, findPollByMessage, getPoll, insertPoll, pollsNewestFirst, updatePoll } from './store.js';
import { countsNow, readTally } from './tally.js';
import { readPage } from '#shared/db/page.js';

const MODULE = 'polls';
const noVotes = (poll: Pick<Poll, 'answers'>): Tally => tallyOf(poll, []);

/** A poll's record as the API answers it (the shape of `PollRecord`, schemas.ts). */
export type PollRecordData = ReturnType<typeof pollRecord>;

/** The poll as its record, with its counts (and voters, while few) read now, unless the operation read them. */
export async function readPollRecord(poll: Poll, tally?: Tally): Promise<PollRecordData> {
  return pollRecord(poll, tally ?? (await readTally(poll)));
}

const pollNowRecord = ({ poll, tally }: PollNow) => readPollRecord(poll, tally);

const pollMissing = (guildId: string, pollId: string) => `There is no poll ${pollId} in guild ${guildId}.`;

async function requirePoll(guildId: string, pollId: string): Promise<Poll> {
  const poll = await getPoll(guildId, pollId);
  if (!poll) throw notFound(pollMissing(guildId, pollId));
  return poll;
}

/** The poll and the module's settings, when the module is enabled (409 first, then 404): all read in one request. */
async function requireEnabledPollWithSettings(guildId: string, pollId: string): Promise<{ poll: Poll; settings: PollSettings }> {
  const { state, record: poll } = await requireEnabledWithState(guildId, MODULE, PollEntity, { guildId, pollId });
  if (!poll) throw notFound(pollMissing(guildId, pollId));
  return { poll, settings: settingsOf(state) };
}

const requireEnabledPoll = async (guildId: string, pollId: string): Promise<Poll> => (await requireEnabledPollWithSettings(guildId, pollId)).poll;

const answersOf = (answers: readonly AnswerInput[]): AnswerOption[] =>
  answers.map((a, i) => ({
    answer_id: i + 1,
    answer_text: a.answer_text,
    label: a.label,
    description: a.description,
    emoji_name: a.emoji_name,
    emoji_id: a.emoji_id,
  }));

export interface CreatePollInput {
  guild_id: string;
  channel_id: string;
  poll_type: number;
  poll_duration: string;
  poll_answer_type: number | null;
  question: string;
  description: string | null;
  answers: AnswerInput[];
  is_multi_select: boolean;
  is_anonymous: boolean | null;
  max_votes_per_answer: number | null;
  poll_owner_id: string;
}

/** What a poll is, as its creator described it; fields native polls ignore get fixed values. */
function describedBy(input: CreatePollInput | RegisterInput) {
  const native = input.poll_type === PollType.Native;
  return {
    poll_type: input.poll_type as PollTypeValue,
    poll_answer_type: native ? null : (input.poll_answer_type as AnswerTypeValue),
    question: input.question,
    description: native ? null : input.description,
    is_multi_select: input.is_multi_select,
    // A native poll shows its voters to everyone and takes one vote per answer.
    is_anonymous: native ? false : Boolean(input.is_anonymous),
    max_votes_per_answer: native ? 1 : (input.max_votes_per_answer ?? 1),
    poll_owner_id: input.poll_owner_id,
  };
}

/** Best effort: a message whose poll could not be registered must not stay behind. */
async function withdrawMessage(channelId: string, messageId: string): Promise<void> {
  await platform.deleteMessage(channelId, messageId).catch(() => undefined);
}

/**
 * Creates a poll: posts the native poll or the service's message (adding
 * the answer reactions on emoji polls), then registers the close timer and
 * the poll. A failure after posting withdraws the message.
 */
export async function createPoll(input: CreatePollInput, interaction: Interaction | null): Promise<PollRecordData> {
  const id = recordIdAhead('polls.poll');
  await requireEnabled(input.guild_id, MODULE);
  const native = input.poll_type === PollType.Native;
  const durationMs = parseDuration(input.poll_duration)!;
  const now = Date.now();
  const poll: Poll = {
    id: await id,
    guild_id: input.guild_id,
    poll_id: mintId(),
    channel_id: input.channel_id,
    message_id: null,
    ...describedBy(input),
    sent_by_service: true,
    status: 'open',
    end_time: now + durationMs,
    delete_at: null,
    edited_with_results: false,
    created_at: new Date(now).toISOString(),
    answers: answersOf(input.answers),
    closed_at: null,
    version: 1,
    rendered_hash: null,
  };

  if (native) {
    poll.message_id = (await platform.createMessage(poll.channel_id, renderNativePoll(poll, nativeHours(durationMs)))).id;
  } else {
    const body = renderPollMessage(poll, noVotes(poll));
    poll.message_id = (await platform.createMessage(poll.channel_id, body)).id;
    poll.rendered_hash = renderHash(body);
    if (poll.poll_answer_type === AnswerType.Emoji) {
      try {
        for (const answer of poll.answers) await platform.addOwnReaction(poll.channel_id, poll.message_id, { name: answer.emoji_name!, id: answer.emoji_id });
      } catch (error) {
        await withdrawMessage(poll.channel_id, poll.message_id);
        throw error;
      }
    }
  }

  try {
    // The timer first: a poll never exists without its end.
    await scheduleClose(poll);
    if (!(await insertPoll(poll))) throw new Error(`minted poll ID ${poll.poll_id} already exists`);
  } catch (error) {
    await cancel(PollJobs.close, dueKeyOf(poll.guild_id, poll.poll_id)).catch(() => undefined);
    await withdrawMessage(poll.channel_id, poll.message_id);
    throw error;
  }
  await tellMember(interaction, `Your poll **${poll.question}** is posted; it ends <t:${Math.floor(poll.end_time / 1000)}:R>.`);
  return pollRecord(poll, noVotes(poll));
}

export async function getPollRecord(guildId: string, pollId: string): Promise<PollRecordData> {
  return readPollRecord(await requireEnabledPoll(guildId, pollId));
}

/**
 * The guild's polls, newest first, one page read by key (behaviour §3.6,
 * §15): `page`, or the signed `cursor` of the page before. A page holds
 * `page_size` polls unless its answer would pass its bytes (`LIST_BYTES`):
 * it then ends early, and `next_cursor` continues right after its last poll.
 */
export async function listPollRecords(guildId: string, query: PageQuery) {
  const scope = { guildId, family: 'polls/list', filter: {} };
  // Counted first: the count puts the list pointers right when they disagree with the polls, before the page reads them.
  const [, { items, ...fields }] = await requireEnabledWhile(guildId, MODULE, async () => {
    const total = await countPolls(guildId);
    return readPage(PollListEntity, { guildId }, query, {
      scope,
      reverse: true,
      total: async () => total,
      // A pointer whose poll went since the count is passed over.
      shown: async ({ pollId }) => {
        const poll = await getPoll(guildId, pollId);
        return poll && readPollRecord(poll);
      },
    });
  });
  return { polls: items, ...fields };
}

/** The guild's polls as records, newest first, read a page of the list at a time: only the pages the reader takes (a settings delete's answer). */
export async function* pollRecordPages(guildId: string): AsyncGenerator<PollRecordData[]> {
  for await (const polls of pollsNewestFirst(guildId, 100)) yield Promise.all(polls.map((poll) => readPollRecord(poll)));
}

export interface VotersQuery {
  answer_id?: number | undefined;
  page: number;
  page_size: number;
  cursor?: string | undefined;
}

/**
 * A page of a poll's voters in member order (behaviour §15): `page` or the
 * signed `cursor` of the page before, every voter or those of `answer_id`.
 * Refused (422) on an anonymous poll: who voted there is shown to no one.
 */
export async function listVoterRecords(guildId: string, pollId: string, query: VotersQuery) {
  const answerId = query.answer_id ?? null;
  const scope = { guildId, family: `polls/voters/${pollId}`, filter: { answer_id: answerId === null ? null : String(answerId) } };
  const poll = await requireEnabledPoll(guildId, pollId);
  if (poll.is_anonymous) {
    throw unprocessable(`Poll ${pollId} is anonymous: who voted is shown to no one; its counts are in the poll's answers[].vote_count.`);
  }
  if (answerId !== null && !poll.answers.some((a) => a.answer_id === answerId)) {
    throw unprocessable(
      `Query field 'answer_id': poll ${pollId} has no answer ${answerId}; its answers are ${poll.answers.map((a) => a.answer_id).join(', ')}.`,
    );
  }
  const counts = await countsNow(poll);
  const total = (answerId === null ? counts?.voters : counts?.members[answerId]) ?? 0;
  const shown = poll.answers.filter((a) => answerId === null || a.answer_id === answerId);
  // Members holding many votes each make long records: the page ends early rather than pass 1 MiB (behaviour §15).
  const { items, ...fields } = await readPage(VoterEntity, { guildId, pollId }, query, {
    scope,
    ...(answerId === null ? {} : { filter: { [`votes.${answerId}`]: { exists: true } } }),
    // The counts are exact (kept with every vote): the total is read from them, never counted.
    total: async () => total,
    shown: (voter) => ({
      user_id: voter.member_id,
      answer_ids: shown.flatMap((a) => Array<number>(voter.votes[String(a.answer_id)] ?? 0).fill(a.answer_id)),
    }),
  });
  return { voters: items, ...fields };
}

export interface EditInput {
  question: string;
  description: string | null;
  max_votes_per_answer: number;
  is_multi_select: boolean;
  is_anonymous: boolean;
}

/**
 * Changes a service poll's question, description and voting rules and
 * re-renders its message. Votes already given stay as they are (a lower cap
 * or single-select applies from the member's next vote). A platform failure
 * undoes the change.
 */
async function editPoll(poll: Poll, changes: EditInput): Promise<PollNow> {
  if (poll.poll_type === PollType.Native) throw unprocessable(`Poll ${poll.poll_id} is a platform-native poll; the platform does not let polls be edited.`);
  if (isShut(poll)) throw unprocessable(`Poll ${poll.poll_id} is closed; a closed poll cannot be edited.`);
  const problem = renderProblem({ ...poll, ...changes });
  if (problem) throw unprocessable(problem);
  const updated = await updatePoll(poll.guild_id, poll.poll_id, changes, { version: poll.version, status: 'open', notClosing: true });
  if (!updated) {
    const current = await requirePoll(poll.guild_id, poll.poll_id);
    if (isShut(current)) throw unprocessable(`Poll ${poll.poll_id} is closed; a closed poll cannot be edited.`);
    return editPoll(current, changes);
  }
  let synced: Synced;
  try {
    synced = await syncPollMessage(poll.guild_id, poll.poll_id, { wait: true, answer: true });
  } catch (error) {
    const { question, description, max_votes_per_answer, is_multi_select, is_anonymous } = poll;
    await updatePoll(poll.guild_id, poll.poll_id, { question, description, max_votes_per_answer, is_multi_select, is_anonymous }, { version: updated.version });
    throw error;
  }
  return { poll: synced.poll ?? (await getPoll(poll.guild_id, poll.poll_id)) ?? updated, tally: synced.tally };
}

export async function editPollByOwner(guildId: string, pollId: string, changes: EditInput, asker: Asker): Promise<PollRecordData> {
  const poll = await requireEnabledPoll(guildId, pollId);
  requireOwner(poll.poll_owner_id, `poll ${poll.poll_id}`, asker.caller, asker.actor, 'edit');
  const edited = await editPoll(poll, changes);
  await tellMember(asker.interaction, `Your poll **${edited.poll.question}** was updated.`);
  return pollNowRecord(edited);
}

/** Native polls the service did not send belong to a member: the service only tracks them. */
function requireSentByService(poll: Poll, doing: string): void {
  if (poll.poll_type === PollType.Native && !poll.sent_by_service) {
    throw unprocessable(`Poll ${poll.poll_id} is a member's platform-native poll the service did not send; the service cannot ${doing} it.`);
  }
}

export async function closePollByOwner(guildId: string, pollId: string, asker: Asker): Promise<PollRecordData> {
  const { poll, settings } = await requireEnabledPollWithSettings(guildId, pollId);
  requireOwner(poll.poll_owner_id, `poll ${poll.poll_id}`, asker.caller, asker.actor, 'close');
  requireSentByService(poll, 'close');
  if (poll.status === 'closed') throw unprocessable(`Poll ${pollId} is closed already.`);
  const closed = await closePoll(poll, 'request', settings);
  await tellMember(asker.interaction, `Your poll **${closed.poll.question}** is closed; the results are on its message.`);
  return pollNowRecord(closed);
}

export async function deletePollByOwner(guildId: string, pollId: string, asker: Asker): Promise<PollRecordData> {
  const poll = await requireEnabledPoll(guildId, pollId);
  requireOwner(poll.poll_owner_id, `poll ${poll.poll_id}`, asker.caller, asker.actor, 'delete');
  requireSentByService(poll, 'delete');
  const record = await readPollRecord(poll);
  // The service's own message goes with the poll.
  await removePoll(poll, { deleteMessage: poll.sent_by_service });
  await tellMember(asker.interaction, `Your poll **${poll.question}** was deleted.`);
  return record;
}

/** A message was deleted on the platform: its poll (if any) goes too. */
export async function deletePollOfMessage(guildId: string, channelId: string, messageId: string): Promise<PollRecordData | null> {
  await requireEnabled(guildId, MODULE);
  const poll = await findPollByMessage(guildId, channelId, messageId);
  if (!poll) return null;
  const record = await readPollRecord(poll);
  await removePoll(poll, { deleteMessage: false });
  return record;
}

export interface RegisterInput extends Omit<CreatePollInput, 'poll_duration' | 'poll_owner_id'> {
  poll_id: string;
  message_id: string | null;
  poll_owner_id: string | null;
  edited_with_results: boolean;
  /** Epoch seconds. */
  end_time: number;
  delete_at: number | null;
  language: string | null;
  auto_delete: number | null;
  sent_by_service: boolean;
}

/**
 * `handler/create`: registers a poll the bot knows of (such as a member's
 * native poll) with its own ID and times; nothing is posted. A poll already
 * edited with results is registered closed.
 */
export async function registerPoll(input: RegisterInput): Promise<PollRecordData> {
  const id = recordIdAhead('polls.poll');
  const [{ state, record: existing }, sweeping] = await checkedWhile(
    () => requireEnabledWithState(input.guild_id, MODULE, PollEntity, { guildId: input.guild_id, pollId: input.poll_id }),
    () => votersBeingRemoved(input.guild_id, input.poll_id),
  );
  if (existing) throw unprocessable(`Field 'poll_id': guild ${input.guild_id} already has a poll ${input.poll_id}.`);
  // The voters of a deleted poll with this ID would count as its own: the ID is free once they are gone.
  if (sweeping) throw unprocessable(`Field 'poll_id': the voters of a deleted poll ${input.poll_id} are still being removed; try again in a minute.`);
  const now = Date.now();
  const endTime = input.end_time * 1000;
  const closed = input.edited_with_results;
  let deleteAt = input.delete_at === null ? null : input.delete_at * 1000;
  if (closed && deleteAt === null) deleteAt = now + settingsOf(state).save_duration_timeout * 1000;
  const poll: Poll = {
    id: await id,
    guild_id: input.guild_id,
    poll_id: input.poll_id,
    channel_id: input.channel_id,
    message_id: input.message_id,
    ...describedBy(input),
    sent_by_service: input.sent_by_service,
    status: closed ? 'closed' : 'open',
    end_time: endTime,
    delete_at: deleteAt,
    edited_with_results: closed,
    created_at: new Date(now).toISOString(),
    answers: answersOf(input.answers),
    closed_at: closed ? Math.min(now, endTime) : null,
    language: input.language,
    auto_delete: input.auto_delete,
    version: 1,
    rendered_hash: null,
  };
  if (!(await insertPoll(poll))) {
    if (await getPoll(input.guild_id, input.poll_id)) throw unprocessable(`Field 'poll_id': guild ${input.guild_id} already has a poll ${input.poll_id}.`);
    throw unprocessable(`Field 'message_id': message ${input.message_id} in channel ${input.channel_id} already carries another poll.`);
  }
  try {
    if (!closed) await scheduleClose(poll);
    if (deleteAt !== null) await scheduleDelete(poll.guild_id, poll.poll_id, deleteAt);
  } catch (error) {
    await removePoll(poll, { deleteMessage: false }).catch(() => undefined);
    throw error;
  }
  return pollRecord(poll, noVotes(poll));
}

/** `handler/edit`: the edit without the owner check. */
export async function editPollDirectly(guildId: string, pollId: string, changes: EditInput): Promise<PollRecordData> {
  return pollNowRecord(await editPoll(await requireEnabledPoll(guildId, pollId), changes));
}

/** `handler/close`: closes the poll now (a member's native poll the bot saw end is only marked closed). */
export async function closePollDirectly(guildId: string, pollId: string): Promise<PollRecordData> {
  const { poll, settings } = await requireEnabledPollWithSettings(guildId, pollId);
  if (poll.status === 'closed') throw unprocessable(`Poll ${pollId} is closed already.`);
  return pollNowRecord(await closePoll(poll, 'request', settings));
}

/** `handler/delete`: removes the poll now, with the message the service sent. */
export async function deletePollDirectly(guildId: string, pollId: string): Promise<PollRecordData> {
  const poll = await requireEnabledPoll(guildId, pollId);
  const record = await readPollRecord(poll);
  await removePoll(poll, { deleteMessage: poll.sent_by_service });
  return record;
}
