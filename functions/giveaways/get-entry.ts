import { endpoint } from '#shared/http/endpoint.js';
import { getGiveawayRecord } from './giveaways.js';
import * as routes from './routes.js';

export const handler = endpoint(routes.getEntry, ({ path, query }) => getGiveawayRecord(query.guild_id, path.entry_id));
