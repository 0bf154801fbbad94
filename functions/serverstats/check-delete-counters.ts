import { endpoint } from '#shared/http/endpoint.js';
import { checkDeletedChannel } from './counters.js';
import { ChannelBody, MessageAnswer } from './schemas.js';

/** Internal: a channel was deleted; drops its counter, or every counter when it was the category. */
export const handler = endpoint({ body: ChannelBody, response: MessageAnswer }, ({ body }) => checkDeletedChannel(body.guild_id, body.channel_id));
