import { endpoint } from '#shared/http/endpoint.js';
import { requireEnabledWhile } from '#shared/modules/state.js';
import { storedSince, verificationRecord, verificationsPage } from './store.js';
import { MODULE } from './verifier.js';
import * as routes from './routes.js';

/** A guild's verifications, newest first, up to `limit` a page (behaviour §15). */
export const handler = endpoint(routes.listEntries, async ({ query }) => {
  const page = { limit: query.limit, cursor: query.cursor };
  const [state, { entries, next_cursor }] = await requireEnabledWhile(query.guild_id, MODULE, () => verificationsPage(query.guild_id, page));
  // Newest first: past the first entry stored before a settings delete, every entry is older (being removed).
  const live = entries.filter((entry) => storedSince(entry, state.data_since));
  return { entries: live.map(verificationRecord), next_cursor: live.length < entries.length ? null : next_cursor };
});
