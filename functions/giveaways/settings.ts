/**
 * What the giveaways settings-delete operation removes (behaviour §11) once
 * the module is reset: every giveaway of the guild with its timers, its
 * entrants following on the scheduler; messages stay on the platform.
 */
import { giveawayRecords } from './giveaways.js';
import { cancelTimers, purgeLater } from './lifecycle.js';
import { deleteGiveaway, listGiveaways } from './store.js';

export async function removeGiveaways(guildId: string) {
  const giveaways = await listGiveaways(guildId);
  const records = await giveawayRecords(giveaways);
  for (const g of giveaways) {
    await deleteGiveaway(guildId, g.entry_id);
    await cancelTimers(guildId, g.entry_id);
    await purgeLater(guildId, g.entry_id);
  }
  return { giveaways: records };
}
