/**
 * What the giveaways settings-delete operation removes (behaviour §11) once
 * the module is reset: every giveaway of the guild with its timers;
 * messages stay on the platform.
 */
import { giveawayRecord } from './giveaways.js';
import { cancelTimers } from './lifecycle.js';
import { deleteGiveaway, listGiveaways } from './store.js';

export async function removeGiveaways(guildId: string) {
  const giveaways = await listGiveaways(guildId);
  for (const g of giveaways) {
    await deleteGiveaway(guildId, g.entry_id);
    await cancelTimers(guildId, g.entry_id);
  }
  return { giveaways: giveaways.map(giveawayRecord) };
}
