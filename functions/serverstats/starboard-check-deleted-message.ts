import { endpoint } from '#shared/http/endpoint.js';
import { checkMessageDeleted } from './starboard.js';
import * as routes from './routes.js';

/** Internal: a message was deleted; a starred original takes its post along, a deleted post drops its entry. */
export const handler = endpoint(routes.starboardCheckDeletedMessage, ({ body }) => checkMessageDeleted(body.guild_id, body.message_id));
