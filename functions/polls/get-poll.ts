import { endpoint } from '#shared/http/endpoint.js';
import { getPollRecord } from './polls.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.getPoll, async ({ query, path }) => ({
  poll: await getPollRecord(query.guild_id, path.poll_id),
}));
