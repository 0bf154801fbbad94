import { endpoint } from '#shared/http/endpoint.js';
import { PrivacyAnswer } from './model.js';
import { countMemberEntries } from './privacy.js';
import { PrivacyQuery } from './schemas.js';

/** Internal; works in any module state. */
export const handler = endpoint({ query: PrivacyQuery, response: PrivacyAnswer }, ({ query }) => countMemberEntries(query.guild_id, query.privacy_member_id));
