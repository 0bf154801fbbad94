import { endpoint } from '#shared/http/endpoint.js';
import { checkStarRemoved } from './starboard.js';
import * as routes from './routes.js';

/** Internal: a star was removed; the post's count follows (the post stays). */
export const handler = endpoint(routes.starboardCheckRemove, ({ body }) => checkStarRemoved(body.guild_id, body.channel_id, body.message_id));
