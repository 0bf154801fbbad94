import { endpoint } from '#shared/http/endpoint.js';
import { ChannelBody, MessageAnswer } from './schemas.js';
import { checkChannelDeleted } from './starboard.js';

/** Internal: a channel was deleted; the starboard channel gone turns the starboard off. */
export const handler = endpoint({ body: ChannelBody, response: MessageAnswer }, ({ body }) => checkChannelDeleted(body.guild_id, body.channel_id));
