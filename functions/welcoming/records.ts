/** The module's lists as the API answers them: every record, newest first (behaviour §11). */
import type { ResponseTypeValue } from './model.js';
import { listResponses, listTimedRoles } from './store.js';

export async function responseRecords(guildId: string, type?: ResponseTypeValue) {
  const all = await listResponses(guildId);
  return all.filter((r) => type === undefined || r.response_type === type).reverse();
}

export async function timedRoleRecords(guildId: string) {
  return (await listTimedRoles(guildId)).reverse();
}
