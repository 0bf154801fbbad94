import { endpoint } from '../../shared/http/endpoint.js';
import { guildQuery } from '../../shared/http/schemas.js';
import { requireEnabled } from '../../shared/modules/state.js';
import { EntriesAnswer } from './schemas.js';
import { listVerifications, verificationRecord } from './store.js';
import { MODULE } from './verifier.js';

/** A guild's verifications, newest first. */
export const handler = endpoint({ query: guildQuery, response: EntriesAnswer }, async ({ query }) => {
  await requireEnabled(query.guild_id, MODULE);
  return { entries: (await listVerifications(query.guild_id)).map(verificationRecord) };
});
