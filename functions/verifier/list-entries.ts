import { endpoint } from '#shared/http/endpoint.js';
import { requireEnabledWhile } from '#shared/modules/state.js';
import { listVerifications, verificationRecord } from './store.js';
import { MODULE } from './verifier.js';
import * as routes from './routes.js';

/** A guild's verifications, newest first. */
export const handler = endpoint(routes.listEntries, async ({ query }) => {
  const [, entries] = await requireEnabledWhile(query.guild_id, MODULE, () => listVerifications(query.guild_id));
  return { entries: entries.map(verificationRecord) };
});
