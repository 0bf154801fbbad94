import { endpoint } from '#shared/http/endpoint.js';
import { checkDeletedChannel } from './counters.js';
import * as routes from './routes.js';

/** Internal: a channel was deleted; drops its counter, or every counter when it was the category. */
export const handler = endpoint(routes.checkDeleteCounters, ({ body }) => checkDeletedChannel(body.guild_id, body.channel_id));
