import { endpoint } from '../../shared/http/endpoint.js';
import { answeringFailures, interactionOf } from './interaction.js';
import { closePollByOwner } from './polls.js';
import { OwnerActionBody, PollPath } from './schemas.js';

/** Owner-only (contract 4): service polls, and native polls the service sent. */
export const handler = answeringFailures(
  endpoint({ body: OwnerActionBody, path: PollPath, actor: 'optional' }, async ({ body, path, caller, actor }) => ({
    poll: await closePollByOwner(body.guild_id, path.poll_id, { caller, actor, interaction: interactionOf(body) }),
  })),
  'Your poll could not be closed.',
);
