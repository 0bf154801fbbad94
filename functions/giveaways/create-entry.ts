import { endpoint } from '#shared/http/endpoint.js';
import { interactionOf, tellMember } from '#shared/platform/interaction.js';
import { createGiveaway } from './giveaways.js';
import * as routes from './routes.js';

/** Posts the giveaway message with Enter and Leave buttons and publishes the seed's hash; it ends by itself at end_time. */
export const handler = endpoint(routes.createEntry, async ({ body }) => {
  const created = await createGiveaway(body.guild_id, body);
  await tellMember(interactionOf(body), `The giveaway for ${body.prize} is running.`);
  return created;
});
