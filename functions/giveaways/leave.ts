import { endpoint } from '#shared/http/endpoint.js';
import { interactionOf, tellMember } from '#shared/platform/interaction.js';
import { changeEntry } from './giveaways.js';
import * as routes from './routes.js';

/** The member (X-Acting-User-Id) leaves: one conditional write; the message's entrant count follows within seconds. */
export const handler = endpoint(routes.leave, async ({ path, body, actor }) => {
  const done = await changeEntry(body.guild_id, path.entry_id, actor, 'leave');
  await tellMember(interactionOf(body), 'You left the giveaway.');
  return done;
});
