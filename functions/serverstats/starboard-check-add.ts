import { endpoint } from '#shared/http/endpoint.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { MessageCheckBody, MessageAnswer } from './schemas.js';
import { checkStarAdded } from './starboard.js';

/** Internal: a star was added; posts the message at the threshold, or updates its post's count. */
export const handler = endpoint({ body: MessageCheckBody, owned: checkOwned, response: MessageAnswer }, ({ body }) =>
  checkStarAdded(body.guild_id, body.channel_id, body.message_id),
);
