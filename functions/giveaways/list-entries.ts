import { endpoint } from '#shared/http/endpoint.js';
import { guildQuery } from '#shared/http/schemas.js';
import { listGiveawayRecords } from './giveaways.js';
import { EntriesAnswer } from './schemas.js';

/** A guild's giveaways, newest first. */
export const handler = endpoint({ query: guildQuery, response: EntriesAnswer }, ({ query }) => listGiveawayRecords(query.guild_id));
