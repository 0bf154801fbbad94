import { endpoint } from '#shared/http/endpoint.js';
import { answerFailures, interactionOf, tellMember } from '#shared/platform/interaction.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { CreateInviteBody, CreatedAnswer } from './schemas.js';
import { createInvite } from './tracker.js';

/** Creates an invite on the platform, owned by the acting member when given, and answers its URL. */
export const handler = endpoint(
  { body: CreateInviteBody, owned: checkOwned, actor: 'optional', response: CreatedAnswer, answerFailures: answerFailures('The invite was not created.') },
  async ({ body, actor }) => {
    const created = await createInvite(body.guild_id, body, actor);
    await tellMember(interactionOf(body), `Your invite: ${created.invite_url}`);
    return created;
  },
);
