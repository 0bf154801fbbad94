import { endpoint } from '#shared/http/endpoint.js';
import { sendMeme } from './internal-ops.js';
import * as routes from './routes.js';

/** Edits an existing message into a meme: its title, link and image. */
export const handler = endpoint(routes.sendMeme, ({ body }) => sendMeme(body.guild_id, body.channel_id, body.message_id));
