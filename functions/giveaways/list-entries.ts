import { endpoint } from '#shared/http/endpoint.js';
import { listGiveawayRecords } from './giveaways.js';
import * as routes from './routes.js';

/** A page of a guild's giveaways, newest first. */
export const handler = endpoint(routes.listEntries, ({ query }) => listGiveawayRecords(query.guild_id, query));
