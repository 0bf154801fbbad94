import { endpoint } from '#shared/http/endpoint.js';
import { deletePollDirectly } from './polls.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.handlerDelete, async ({ body }) => ({
  poll: await deletePollDirectly(body.guild_id, body.poll_id),
}));
