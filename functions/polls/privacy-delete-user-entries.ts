import { endpoint } from '#shared/http/endpoint.js';
import { deleteMemberEntries } from './privacy.js';
import { PrivacyBody } from './schemas.js';
import { messageAnswer } from '#shared/http/schemas.js';

/** Internal; works in any module state. */
export const handler = endpoint({ body: PrivacyBody, response: messageAnswer }, ({ body }) => deleteMemberEntries(body.guild_id, body.privacy_member_id));
