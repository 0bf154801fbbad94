import { endpoint } from '#shared/http/endpoint.js';
import { countMemberEntries } from './privacy.js';
import { PrivacyCounts, PrivacyQuery } from './schemas.js';

/** Internal; works in any module state. */
export const handler = endpoint({ query: PrivacyQuery, response: PrivacyCounts }, ({ query }) => countMemberEntries(query.guild_id, query.privacy_member_id));
