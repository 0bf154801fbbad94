import { endpoint } from '#shared/http/endpoint.js';
import { interactionOf, tellMember } from '#shared/platform/interaction.js';
import { endGiveawayNow } from './giveaways.js';
import * as routes from './routes.js';

/** Owner only, while running: ends the giveaway now; the durable end draws and announces its winners. */
export const handler = endpoint(routes.endEntry, async ({ path, body, caller, actor }) => {
  const done = await endGiveawayNow(body.guild_id, path.entry_id, { caller, actor });
  await tellMember(interactionOf(body), done.message);
  return done;
});
