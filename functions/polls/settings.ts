/**
 * What the polls settings-delete operation removes (behaviour §5, §6 and
 * §15) once the module is reset: every poll of the guild (timers, items),
 * and their voters behind the answer (`voterSweep`). Messages on the
 * platform are left as they are: removing data never depends on the
 * platform answering.
 */
import { answerList, shownList } from '#shared/modules/store.js';
import { removePoll } from './lifecycle.js';
import { pollRecordPages } from './polls.js';
import { countPolls, listPolls } from './store.js';

/** Polls removed at once. */
const PARALLEL = 25;

/**
 * Answers the polls it removed as an answer shows a list that can grow
 * without bound (behaviour §15): the newest, read a page of the list at a
 * time and only until the answer is full, with `polls_total`.
 */
export async function removePolls(guildId: string) {
  const total = await countPolls(guildId);
  const shown = await shownList(pollRecordPages(guildId));
  const polls = await listPolls(guildId);
  for (let i = 0; i < polls.length; i += PARALLEL) {
    await Promise.all(polls.slice(i, i + PARALLEL).map((poll) => removePoll(poll, { deleteMessage: false })));
  }
  return answerList('polls', shown, total);
}
