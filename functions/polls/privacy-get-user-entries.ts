import { endpoint } from '#shared/http/endpoint.js';
import { countMemberEntries } from './privacy.js';
import { PrivacyQuery } from './schemas.js';
import { privacyCounts } from '#shared/http/schemas.js';

/** Internal; works in any module state. */
export const handler = endpoint({ query: PrivacyQuery, response: privacyCounts }, ({ query }) => countMemberEntries(query.guild_id, query.privacy_member_id));
