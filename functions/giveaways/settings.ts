/**
 * What the giveaways settings-delete operation removes (behaviour §11) once
 * the module is reset: every giveaway of the guild with its timers, its
 * entrants following on the scheduler; messages stay on the platform.
 */
import { answerList, shownList } from '#shared/modules/store.js';
import { giveawayRecords } from './giveaways.js';
import { cancelTimers, purgeLater } from './lifecycle.js';
import { type Giveaway, deleteGiveaway, listGiveaways } from './store.js';

/** Giveaways made records this many at a time (each reads its listed entrants), only until the answer is full. */
const RECORDS_AT_ONCE = 50;

async function* recordPages(giveaways: readonly Giveaway[]) {
  for (let i = 0; i < giveaways.length; i += RECORDS_AT_ONCE) yield giveawayRecords(giveaways.slice(i, i + RECORDS_AT_ONCE));
}

/** Answers the giveaways it removed as an answer shows a list that can grow without bound (behaviour §15): the newest, with `giveaways_total`. */
export async function removeGiveaways(guildId: string) {
  const giveaways = await listGiveaways(guildId);
  const shown = await shownList(recordPages(giveaways));
  for (const g of giveaways) {
    await deleteGiveaway(guildId, g.entry_id);
    await cancelTimers(guildId, g.entry_id);
    await purgeLater(guildId, g.entry_id);
  }
  return answerList('giveaways', shown, giveaways.length);
}
