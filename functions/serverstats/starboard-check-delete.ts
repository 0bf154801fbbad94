import { endpoint } from '#shared/http/endpoint.js';
import { checkChannelDeleted } from './starboard.js';
import * as routes from './routes.js';

/** Internal: a channel was deleted; the starboard channel gone turns the starboard off. */
export const handler = endpoint(routes.starboardCheckDelete, ({ body }) => checkChannelDeleted(body.guild_id, body.channel_id));
