import { endpoint } from '#shared/http/endpoint.js';
import { answerFailures, interactionOf, tellMember } from '#shared/platform/interaction.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { DeleteInviteBody, MessageAnswer } from './schemas.js';
import { deleteInvite } from './tracker.js';

/** Deletes an invite on the platform (an unknown code is a 404). */
export const handler = endpoint(
  { body: DeleteInviteBody, owned: checkOwned, response: MessageAnswer, answerFailures: answerFailures('The invite was not deleted.') },
  async ({ body }) => {
    const done = await deleteInvite(body.guild_id, body.invite_code);
    await tellMember(interactionOf(body), done.message);
    return done;
  },
);
