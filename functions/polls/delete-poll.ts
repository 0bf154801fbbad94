import { endpoint } from '#shared/http/endpoint.js';
import { answerFailures, interactionOf } from '#shared/platform/interaction.js';
import { deletePollByOwner } from './polls.js';
import { OwnerActionBody, PollAnswer, PollPath } from './schemas.js';

/** Owner-only (behaviour §4): service polls, and native polls the service sent; their message goes too. */
export const handler = endpoint(
  { body: OwnerActionBody, path: PollPath, actor: 'optional', answerFailures: answerFailures('Your poll could not be deleted.'), response: PollAnswer },
  async ({ body, path, caller, actor }) => ({
    poll: await deletePollByOwner(body.guild_id, path.poll_id, { caller, actor, interaction: interactionOf(body) }),
  }),
);
