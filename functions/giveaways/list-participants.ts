import { endpoint } from '#shared/http/endpoint.js';
import { listParticipants } from './giveaways.js';
import { EntryPath, ParticipantsAnswer, ParticipantsQuery } from './schemas.js';

/** A page of a giveaway's entrants, in numeric order. */
export const handler = endpoint({ path: EntryPath, query: ParticipantsQuery, response: ParticipantsAnswer }, ({ path, query }) =>
  listParticipants(query.guild_id, path.entry_id, query),
);
