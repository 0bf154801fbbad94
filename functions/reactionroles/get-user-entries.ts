import { endpoint } from '#shared/http/endpoint.js';
import { countMemberReferences } from './cleanup.js';
import { PrivacyQuery } from './schemas.js';
import { privacyCounts } from '#shared/http/schemas.js';

export const handler = endpoint({ query: PrivacyQuery, response: privacyCounts }, ({ query }) =>
  countMemberReferences(query.guild_id, query.privacy_member_id),
);
