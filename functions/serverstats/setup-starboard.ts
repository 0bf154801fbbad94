import { endpoint } from '#shared/http/endpoint.js';
import { setUpStarboard } from './starboard.js';
import * as routes from './routes.js';

/** Sets the starboard channel and turns the starboard on. */
export const handler = endpoint(routes.setupStarboard, ({ body }) => setUpStarboard(body.guild_id, body.channel_id));
