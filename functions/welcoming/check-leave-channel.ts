import { endpoint } from '#shared/http/endpoint.js';
import { memberLeft } from './checks.js';
import { MessageAnswer } from './model.js';
import { GuildBody } from './schemas.js';

/** Internal: a member left (X-Acting-User-Id); cancel their timed roles and post the leave message. */
export const handler = endpoint({ body: GuildBody, actor: 'required', response: MessageAnswer }, ({ body, actor }) => memberLeft(body.guild_id, actor));
