import { endpoint } from '#shared/http/endpoint.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { MessageCheckBody, MessageAnswer } from './schemas.js';
import { checkStarRemoved } from './starboard.js';

/** Internal: a star was removed; the post's count follows (the post stays). */
export const handler = endpoint({ body: MessageCheckBody, owned: checkOwned, response: MessageAnswer }, ({ body }) =>
  checkStarRemoved(body.guild_id, body.channel_id, body.message_id),
);
