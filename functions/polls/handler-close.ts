import { endpoint } from '#shared/http/endpoint.js';
import { closePollDirectly } from './polls.js';
import { HandlerPollBody, PollAnswer } from './schemas.js';

export const handler = endpoint({ body: HandlerPollBody, response: PollAnswer }, async ({ body }) => ({
  poll: await closePollDirectly(body.guild_id, body.poll_id),
}));
