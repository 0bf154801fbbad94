import { endpoint } from '#shared/http/endpoint.js';
import { answerFailures, interactionOf } from '#shared/platform/interaction.js';
import { closePollByOwner } from './polls.js';
import { OwnerActionBody, PollAnswer, PollPath } from './schemas.js';

/** Owner-only (behaviour §4): service polls, and native polls the service sent. */
export const handler = endpoint(
  { body: OwnerActionBody, path: PollPath, actor: 'optional', answerFailures: answerFailures('Your poll could not be closed.'), response: PollAnswer },
  async ({ body, path, caller, actor }) => ({
    poll: await closePollByOwner(body.guild_id, path.poll_id, { caller, actor, interaction: interactionOf(body) }),
  }),
);
