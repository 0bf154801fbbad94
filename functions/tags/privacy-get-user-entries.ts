import { endpoint } from '#shared/http/endpoint.js';
import { PrivacyAnswer } from './model.js';
import { PrivacyQuery } from './schemas.js';
import { countMemberEntries } from './tags.js';

/** Internal; works in any module state. */
export const handler = endpoint({ query: PrivacyQuery, response: PrivacyAnswer }, ({ query }) => countMemberEntries(query.guild_id, query.privacy_member_id));
