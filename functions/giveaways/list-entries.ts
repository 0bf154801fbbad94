import { endpoint } from '#shared/http/endpoint.js';
import { listGiveawayRecords } from './giveaways.js';
import { EntriesAnswer, ListQuery } from './schemas.js';

/** A page of a guild's giveaways, newest first. */
export const handler = endpoint({ query: ListQuery, response: EntriesAnswer }, ({ query }) => listGiveawayRecords(query.guild_id, query));
