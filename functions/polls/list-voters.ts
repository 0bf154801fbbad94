import { endpoint } from '#shared/http/endpoint.js';
import { listVoterRecords } from './polls.js';
import { PollPath, VotersPage, VotersQuery } from './schemas.js';

/** A page of a poll's voters, in member order. */
export const handler = endpoint({ path: PollPath, query: VotersQuery, response: VotersPage }, ({ path, query }) =>
  listVoterRecords(query.guild_id, path.poll_id, query),
);
