import { endpoint } from '../../shared/http/endpoint.js';
import { ChannelBody, MessageAnswer } from './schemas.js';
import { setUpStarboard } from './starboard.js';

/** Sets the starboard channel and turns the starboard on. */
export const handler = endpoint({ body: ChannelBody, response: MessageAnswer }, ({ body }) => setUpStarboard(body.guild_id, body.channel_id));
