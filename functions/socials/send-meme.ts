import { endpoint } from '#shared/http/endpoint.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { sendMeme } from './handler-ops.js';
import { MemeSendBody, MessageAnswer } from './schemas.js';

/** Edits an existing message into a meme: its title, link and image. */
export const handler = endpoint({ body: MemeSendBody, owned: checkOwned, response: MessageAnswer }, ({ body }) =>
  sendMeme(body.guild_id, body.channel_id, body.message_id),
);
