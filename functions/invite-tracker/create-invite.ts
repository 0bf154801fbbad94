import { endpoint } from '#shared/http/endpoint.js';
import { interactionOf, tellMember } from '#shared/platform/interaction.js';
import { createInvite } from './tracker.js';
import * as routes from './routes.js';

/** Creates an invite on the platform, owned by the acting member when given, and answers its URL. */
export const handler = endpoint(routes.createInvite, async ({ body, actor }) => {
  const created = await createInvite(body.guild_id, body, actor);
  await tellMember(interactionOf(body), `Your invite: ${created.invite_url}`);
  return created;
});
