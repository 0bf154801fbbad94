import { endpoint } from '#shared/http/endpoint.js';
import { notFound } from '#shared/errors.js';
import { requireEnabledWithState } from '#shared/modules/state.js';
import { VerificationEntity, storedSince, verificationRecord } from './store.js';
import { MODULE } from './verifier.js';
import * as routes from './routes.js';

/** One verification; `entry_id` is its verifier_id. One stored before a settings delete is gone (behaviour §15). */
export const handler = endpoint(routes.getEntry, async ({ path, query }) => {
  const { state, record: entry } = await requireEnabledWithState(query.guild_id, MODULE, VerificationEntity, {
    guildId: query.guild_id,
    verifierId: path.entry_id,
  });
  if (!entry || !storedSince(entry, state.data_since)) throw notFound(`Guild ${query.guild_id} has no verification ${path.entry_id}.`);
  return { entry: verificationRecord(entry) };
});
