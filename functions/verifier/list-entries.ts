import { endpoint } from '#shared/http/endpoint.js';
import { guildQuery } from '#shared/http/schemas.js';
import { requireEnabledWhile } from '#shared/modules/state.js';
import { EntriesAnswer } from './schemas.js';
import { listVerifications, verificationRecord } from './store.js';
import { MODULE } from './verifier.js';

/** A guild's verifications, newest first. */
export const handler = endpoint({ query: guildQuery, response: EntriesAnswer }, async ({ query }) => {
  const [, entries] = await requireEnabledWhile(query.guild_id, MODULE, () => listVerifications(query.guild_id));
  return { entries: entries.map(verificationRecord) };
});
