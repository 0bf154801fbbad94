import { endpoint } from '#shared/http/endpoint.js';
import { checkDelete } from './cleanup.js';
import * as routes from './routes.js';

/** Internal: a message (or, with message_id null, a channel) was deleted on the platform. */
export const handler = endpoint(routes.checkDelete, ({ body }) => checkDelete(body.guild_id, body.channel_id, body.message_id));
