/**
 * What the polls settings-delete operation removes (behaviour §5, §6 and
 * §15) once the module is reset: every poll of the guild (timers, items),
 * and their voters behind the answer (`voterSweep`). Messages on the
 * platform are left as they are: removing data never depends on the
 * platform answering.
 */
import { ANSWER_LIST_LIMIT } from '#shared/modules/store.js';
import { removePoll } from './lifecycle.js';
import { recordOf } from './polls.js';
import { listPolls } from './store.js';

/** Polls removed at once. */
const PARALLEL = 25;

/** Answers the polls it removed, newest first: the first 1000 records and how many there were (`polls_total`). */
export async function removePolls(guildId: string) {
  const polls = (await listPolls(guildId)).sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
  const shown = await Promise.all(polls.slice(0, ANSWER_LIST_LIMIT).map((poll) => recordOf(poll)));
  for (let i = 0; i < polls.length; i += PARALLEL) {
    await Promise.all(polls.slice(i, i + PARALLEL).map((poll) => removePoll(poll, { deleteMessage: false })));
  }
  return { polls: shown, polls_total: polls.length };
}
