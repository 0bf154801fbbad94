import { endpoint } from '#shared/http/endpoint.js';
import { guildBody } from '#shared/http/schemas.js';
import { MessageAnswer } from './schemas.js';
import { checkLeave } from './tracker.js';

/** Internal: a member (X-Acting-User-Id) left; their latest join is marked as left, and the leave message posted. */
export const handler = endpoint({ body: guildBody, actor: 'required', response: MessageAnswer }, ({ body, actor }) => checkLeave(body.guild_id, actor));
