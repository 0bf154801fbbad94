import { endpoint } from '#shared/http/endpoint.js';
import { getPollRecord } from './polls.js';
import { GetPollQuery, PollAnswer, PollPath } from './schemas.js';

export const handler = endpoint({ query: GetPollQuery, path: PollPath, response: PollAnswer }, async ({ query, path }) => ({
  poll: await getPollRecord(query.guild_id, path.poll_id),
}));
