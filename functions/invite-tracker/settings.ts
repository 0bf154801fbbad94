/**
 * The invite tracker's settings (behaviour §11): a change's message contents
 * are checked against the platform's limits when stored, and the
 * settings-delete operation removes the module's invites and uses.
 */
import { unprocessable } from '#shared/errors.js';
import { answerList } from '#shared/modules/store.js';
import { templateProblem } from '#shared/templates/index.js';
import type { SettingsInput } from './schemas.js';
import { deleteModuleItems } from './store.js';
import { inviteRecord, newestFirst } from './tracker.js';

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

export async function removeInvites(guildId: string) {
  const { invites, uses } = await deleteModuleItems(guildId);
  return { invites: invites.sort(newestFirst).map(inviteRecord), ...answerList('stats_uses', uses) };
}
