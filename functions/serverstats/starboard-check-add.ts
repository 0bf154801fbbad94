import { endpoint } from '#shared/http/endpoint.js';
import { checkStarAdded } from './starboard.js';
import * as routes from './routes.js';

/** Internal: a star was added; posts the message at the threshold, or updates its post's count. */
export const handler = endpoint(routes.starboardCheckAdd, ({ body }) => checkStarAdded(body.guild_id, body.channel_id, body.message_id));
