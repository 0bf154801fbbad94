import { endpoint } from '#shared/http/endpoint.js';
import { interactionOf, tellMember } from '#shared/platform/interaction.js';
import { rerollGiveaway } from './giveaways.js';
import * as routes from './routes.js';

/** Owner only, after the end: draws the next round from the entrants not drawn yet. */
export const handler = endpoint(routes.reroll, async ({ path, body, caller, actor }) => {
  const done = await rerollGiveaway(body.guild_id, path.entry_id, { caller, actor });
  await tellMember(interactionOf(body), done.message);
  return done;
});
