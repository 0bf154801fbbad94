import { endpoint } from '#shared/http/endpoint.js';
import { answerFailures, interactionOf, tellMember } from '#shared/platform/interaction.js';
import { CreateBody, CreatedAnswer } from './schemas.js';
import { createVerification } from './verifier.js';

/** Internal: posts the verification prompt for the acting member (X-Acting-User-Id), reusing their open entry. */
export const handler = endpoint(
  { body: CreateBody, actor: 'required', response: CreatedAnswer, answerFailures: answerFailures('The verification was not started.') },
  async ({ body, actor }) => {
    const created = await createVerification(body.guild_id, actor, body.requester);
    await tellMember(interactionOf(body), 'The verification prompt was sent.');
    return created;
  },
);
