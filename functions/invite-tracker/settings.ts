/**
 * The invite tracker's settings (behaviour §11): a change's message contents
 * are checked against the platform's limits when stored, and the
 * settings-delete operation removes the module's invites and uses (the uses
 * behind its answer, behaviour §15).
 */
import { unprocessable } from '#shared/errors.js';
import { firstRecordsAndCount } from '#shared/modules/state.js';
import { writeDataSince } from '#shared/modules/store.js';
import { templateProblem } from '#shared/templates/index.js';
import type { SettingsInput } from './schemas.js';
import { UseEntity, deleteInvitesOf, usesFrom } from './store.js';
import { useSweep } from './sweep.js';
import { MODULE, inviteRecord, newestFirst } from './tracker.js';

/** The changes as given, once each join and leave message they leave in place fits the platform's limits (422 otherwise). */
export function checkedChanges(_guildId: string, changes: Omit<SettingsInput, 'guild_id'>, current: Record<string, unknown>) {
  for (const which of ['join', 'leave'] as const) {
    const content = changes[`${which}_message_content`] ?? (current[`${which}_message_content`] as string | null);
    const isEmbed = changes[`${which}_message_is_embed`] ?? current[`${which}_message_is_embed`] === true;
    const problem = content == null ? null : templateProblem(content, isEmbed, `${which}_message_content`);
    if (problem) throw unprocessable(problem);
  }
  return changes;
}

/**
 * Removes the invites at once and answers them with the newest 1000 uses
 * and their count (those stored since an earlier delete still being removed:
 * the older ones were answered by it). The uses read as gone from now on and
 * are removed behind the answer (`sweep.ts`).
 */
export async function removeInvites(guildId: string) {
  const cutoff = new Date().toISOString();
  const earlier = await useSweep.get(guildId);
  const [invites, uses] = await Promise.all([
    deleteInvitesOf(guildId),
    firstRecordsAndCount(guildId, UseEntity.prefix, earlier ? usesFrom(earlier.cutoff) : undefined),
  ]);
  await Promise.all([writeDataSince(guildId, MODULE, cutoff), useSweep.start(guildId, cutoff)]);
  return { invites: invites.sort(newestFirst).map(inviteRecord), stats_uses: uses.records, stats_uses_total: uses.total };
}
