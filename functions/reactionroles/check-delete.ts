import { endpoint } from '#shared/http/endpoint.js';
import { checkDelete } from './cleanup.js';
import { CheckDeleteBody, RemovedAnswer } from './schemas.js';

/** Internal: a message (or, with message_id null, a channel) was deleted on the platform. */
export const handler = endpoint({ body: CheckDeleteBody, response: RemovedAnswer }, ({ body }) => checkDelete(body.guild_id, body.channel_id, body.message_id));
