import { endpoint } from '#shared/http/endpoint.js';
import { interactionOf } from '#shared/platform/interaction.js';
import { closePollByOwner } from './polls.js';
import * as routes from './routes.js';

/** Owner-only (behaviour §4): service polls, and native polls the service sent. */
export const handler = endpoint(routes.closePoll, async ({ body, path, caller, actor }) => ({
  poll: await closePollByOwner(body.guild_id, path.poll_id, { caller, actor, interaction: interactionOf(body) }),
}));
