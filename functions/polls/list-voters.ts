import { endpoint } from '#shared/http/endpoint.js';
import { listVoterRecords } from './polls.js';
import * as routes from './routes.js';

/** A page of a poll's voters, in member order. */
export const handler = endpoint(routes.listVoters, ({ path, query }) => listVoterRecords(query.guild_id, path.poll_id, query));
