import { endpoint } from '#shared/http/endpoint.js';
import { DeletedMessageBody, MessageAnswer } from './schemas.js';
import { checkMessageDeleted } from './starboard.js';

/** Internal: a message was deleted; a starred original takes its post along, a deleted post drops its entry. */
export const handler = endpoint({ body: DeletedMessageBody, response: MessageAnswer }, ({ body }) => checkMessageDeleted(body.guild_id, body.message_id));
