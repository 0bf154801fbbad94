/**
 * The privacy pair (behaviour §12): the member's entries, their wins and the
 * giveaways they host. Deleting takes them out of every giveaway's entrants
 * and winners (of every round) and forgets them as a host (`owner_id` null);
 * a draw is then no longer repeatable from the record alone, which
 * `verify-draw` reports. The module keeps no names.
 */
import { dropEntrant, enteredOf } from './entrants.js';
import { type Giveaway, getGiveaway, listGiveaways, updateGiveaway } from './store.js';

const hasWon = (g: Giveaway, memberId: string) => g.winners.includes(memberId) || g.rounds.some((r) => r.winners.includes(memberId));

/** The guild's giveaways, each with how many times it refers to the member (entered, won, hosts): one batch read of their entrant items. */
async function referring(guildId: string, memberId: string): Promise<[Giveaway, number][]> {
  const giveaways = await listGiveaways(guildId);
  const entered = await enteredOf(
    guildId,
    giveaways.map((g) => g.entry_id),
    memberId,
  );
  return giveaways.map((g) => [
    g,
    Number(entered.has(g.entry_id) || g.legacy.includes(memberId)) + Number(hasWon(g, memberId)) + Number(g.owner_id === memberId),
  ]);
}

export async function countMemberEntries(guildId: string, memberId: string) {
  return (await referring(guildId, memberId)).reduce((sum, [, n]) => sum + n, 0);
}

const MAX_ATTEMPTS = 8;

export async function deleteMemberEntries(guildId: string, memberId: string) {
  let changed = 0;
  for (const [listed, refs] of await referring(guildId, memberId)) {
    if (refs === 0) continue;
    await dropEntrant(guildId, listed.entry_id, memberId);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const g = await getGiveaway(guildId, listed.entry_id);
      if (!g) break;
      const fields = {
        winners: g.winners.filter((id) => id !== memberId).join(','),
        rounds: g.rounds.map((r) => ({ ...r, winners: r.winners.filter((id) => id !== memberId) })),
        owner_id: g.owner_id === memberId ? null : g.owner_id,
      };
      if (await updateGiveaway(guildId, g.entry_id, fields, { version: g._version })) break;
    }
    changed++;
  }
  return `Removed member ${memberId} from ${changed} giveaway${changed === 1 ? '' : 's'} of guild ${guildId} (entries, wins and hosting).`;
}
