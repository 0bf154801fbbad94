import { endpoint } from '#shared/http/endpoint.js';
import { MessageAnswer } from './model.js';
import { PrivacyBody } from './schemas.js';
import { deleteMemberEntries } from './tags.js';

/** Internal; works in any module state. The member's tags are deleted. */
export const handler = endpoint({ body: PrivacyBody, response: MessageAnswer }, ({ body }) => deleteMemberEntries(body.guild_id, body.privacy_member_id));
