import { endpoint } from '#shared/http/endpoint.js';
import { interactionOf, tellMember } from '#shared/platform/interaction.js';
import { deleteInvite } from './tracker.js';
import * as routes from './routes.js';

/** Deletes an invite on the platform (an unknown code is a 404). */
export const handler = endpoint(routes.deleteInvite, async ({ body }) => {
  const done = await deleteInvite(body.guild_id, body.invite_code);
  await tellMember(interactionOf(body), done.message);
  return done;
});
