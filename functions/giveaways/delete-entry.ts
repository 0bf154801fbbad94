import { endpoint } from '#shared/http/endpoint.js';
import { interactionOf, tellMember } from '#shared/platform/interaction.js';
import { deleteGiveawayByOwner } from './giveaways.js';
import * as routes from './routes.js';

/** Owner only: deletes the message and the giveaway, and cancels its end. */
export const handler = endpoint(routes.deleteEntry, async ({ path, body, caller, actor }) => {
  const done = await deleteGiveawayByOwner(body.guild_id, path.entry_id, { caller, actor });
  await tellMember(interactionOf(body), `The giveaway for ${done.entry.prize} was deleted.`);
  return done;
});
