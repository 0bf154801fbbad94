import { endpoint } from '#shared/http/endpoint.js';
import { InviteEventBody, MessageAnswer } from './schemas.js';
import { inviteDeleted } from './tracker.js';

/** Internal: an invite was deleted on the platform; it stays a join candidate for 60 seconds. */
export const handler = endpoint({ body: InviteEventBody, response: MessageAnswer }, ({ body }) => inviteDeleted(body.guild_id, body.invite_code));
