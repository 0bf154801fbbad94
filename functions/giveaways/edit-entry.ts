import { endpoint } from '#shared/http/endpoint.js';
import { interactionOf, tellMember } from '#shared/platform/interaction.js';
import { editGiveaway } from './giveaways.js';
import * as routes from './routes.js';

/** Owner only, while running: new prize, description or winner count; the message follows. */
export const handler = endpoint(routes.editEntry, async ({ path, body, caller, actor }) => {
  const done = await editGiveaway(
    body.guild_id,
    path.entry_id,
    { prize: body.new_prize, description: body.new_description, winner_count: body.new_winner_count },
    { caller, actor },
  );
  await tellMember(interactionOf(body), done.message);
  return done;
});
