import { endpoint } from '#shared/http/endpoint.js';
import { guildBody } from '#shared/http/schemas.js';
import { MessageAnswer } from './schemas.js';
import { checkJoin } from './tracker.js';

/** Internal: a member (X-Acting-User-Id) joined; the join is attributed and recorded, and the join message posted. */
export const handler = endpoint({ body: guildBody, actor: 'required', response: MessageAnswer }, ({ body, actor }) => checkJoin(body.guild_id, actor));
