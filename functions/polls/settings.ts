/**
 * What the polls settings-delete operation removes (behaviour §5 and §6) once
 * the module is reset: every poll of the guild (voters, timers, items).
 * Messages on the platform are left as they are: removing data never
 * depends on the platform answering.
 */
import { removePoll } from './lifecycle.js';
import { recordOf } from './polls.js';
import { listPolls } from './store.js';

/** Answers the polls it removed. */
export async function removePolls(guildId: string) {
  const polls = await listPolls(guildId);
  const removed: Record<string, unknown>[] = [];
  for (const poll of polls) {
    removed.push(await recordOf(poll));
    await removePoll(poll, { deleteMessage: false });
  }
  return { polls: removed };
}
