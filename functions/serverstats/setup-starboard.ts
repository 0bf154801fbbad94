import { endpoint } from '#shared/http/endpoint.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { StarboardBody, MessageAnswer } from './schemas.js';
import { setUpStarboard } from './starboard.js';

/** Sets the starboard channel and turns the starboard on. */
export const handler = endpoint({ body: StarboardBody, owned: checkOwned, response: MessageAnswer }, ({ body }) =>
  setUpStarboard(body.guild_id, body.channel_id),
);
