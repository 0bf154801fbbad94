import { endpoint } from '#shared/http/endpoint.js';
import { requireEnabledRecord } from '#shared/modules/state.js';
import { VerificationEntity, verificationRecord } from './store.js';
import { MODULE } from './verifier.js';
import * as routes from './routes.js';

/** One verification; `entry_id` is its verifier_id. */
export const handler = endpoint(routes.getEntry, async ({ path, query }) => {
  const item = await requireEnabledRecord(
    query.guild_id,
    MODULE,
    VerificationEntity.key({ guildId: query.guild_id, verifierId: path.entry_id }),
    `Guild ${query.guild_id} has no verification ${path.entry_id}.`,
  );
  return { entry: verificationRecord(VerificationEntity.parse(item)) };
});
