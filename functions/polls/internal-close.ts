import { endpoint } from '#shared/http/endpoint.js';
import { closePollDirectly } from './polls.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.handlerClose, async ({ body }) => ({
  poll: await closePollDirectly(body.guild_id, body.poll_id),
}));
