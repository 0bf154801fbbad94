import { endpoint } from '#shared/http/endpoint.js';
import { interactionOf, tellMember } from '#shared/platform/interaction.js';
import { createVerification } from './verifier.js';
import * as routes from './routes.js';

/** Internal: posts the verification prompt for the acting member (X-Acting-User-Id), reusing their open entry. */
export const handler = endpoint(routes.createVerification, async ({ body, actor }) => {
  const created = await createVerification(body.guild_id, actor, body.requester);
  await tellMember(interactionOf(body), 'The verification prompt was sent.');
  return created;
});
