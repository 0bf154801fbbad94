import { endpoint } from '#shared/http/endpoint.js';
import { deleteMemberReferences } from './cleanup.js';
import { PrivacyBody } from './schemas.js';
import { messageAnswer } from '#shared/http/schemas.js';

export const handler = endpoint({ body: PrivacyBody, response: messageAnswer }, ({ body }) => deleteMemberReferences(body.guild_id, body.privacy_member_id));
