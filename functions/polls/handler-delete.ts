import { endpoint } from '#shared/http/endpoint.js';
import { deletePollDirectly } from './polls.js';
import { HandlerPollBody, PollAnswer } from './schemas.js';

export const handler = endpoint({ body: HandlerPollBody, response: PollAnswer }, async ({ body }) => ({
  poll: await deletePollDirectly(body.guild_id, body.poll_id),
}));
