import { endpoint } from '#shared/http/endpoint.js';
import { deleteMemberEntries } from './privacy.js';
import { MessageAnswer, PrivacyBody } from './schemas.js';

/** Internal; works in any module state. */
export const handler = endpoint({ body: PrivacyBody, response: MessageAnswer }, ({ body }) => deleteMemberEntries(body.guild_id, body.privacy_member_id));
