import { endpoint } from '#shared/http/endpoint.js';
import { listParticipants } from './giveaways.js';
import * as routes from './routes.js';

/** A page of a giveaway's entrants, in numeric order. */
export const handler = endpoint(routes.listParticipants, ({ path, query }) => listParticipants(query.guild_id, path.entry_id, query));
