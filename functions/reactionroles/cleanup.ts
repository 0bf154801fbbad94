/**
 * Removing the module's data: panels whose message or channel is gone, all
 * of a guild's data (module delete), and a member's references (privacy).
 */
import { requireEnabledWhile, requireEnabledWith } from '#shared/modules/state.js';
import { MODULE, type Panel, entryRecords, newestFirst, panelRecord } from './model.js';
import { deleteAll, findChannelPanels, getPanel, listMemberClaims, listModuleItems, listPanelClaims, MessageEntity } from './store.js';

function removed(panels: Panel[]) {
  const sorted = [...panels].sort(newestFirst);
  return { panels: sorted.map(panelRecord), entries: sorted.flatMap(entryRecords) };
}

/**
 * A message or channel was deleted on the platform: its panels (every panel
 * of the channel when `messageId` is null) go, with their entries and
 * claims. Nothing to drop is not an error: the bot asks for every deletion.
 */
export async function checkDelete(guildId: string, channelId: string, messageId: string | null) {
  const panels = messageId === null ? await channelPanels(guildId, channelId) : await messagePanel(guildId, channelId, messageId);
  const claims = (await Promise.all(panels.map((p) => listPanelClaims(guildId, p.panel_id)))).flat();
  await deleteAll(panels, claims);
  return removed(panels);
}

async function channelPanels(guildId: string, channelId: string): Promise<Panel[]> {
  const [, panels] = await requireEnabledWhile(guildId, MODULE, () => findChannelPanels(guildId, channelId));
  return panels;
}

/** The panel on a message (none: empty), the module state read with the message's pointer. */
async function messagePanel(guildId: string, channelId: string, messageId: string): Promise<Panel[]> {
  const pointer = await requireEnabledWith(guildId, MODULE, MessageEntity.key({ guildId, channelId, messageId }));
  const panel = pointer ? await getPanel(guildId, MessageEntity.parse(pointer)) : null;
  return panel ? [panel] : [];
}

/**
 * What the module delete removes once the module is reset: every panel,
 * entry and claim of the guild. The panels' messages stay on the platform:
 * this removes data, not messages.
 */
export async function deleteModuleData(guildId: string) {
  const { panels, claims } = await listModuleItems(guildId);
  await deleteAll(panels, claims);
  return removed(panels);
}

/** How many stored records refer to the member: their claims (the module keeps no names). */
export async function countMemberReferences(guildId: string, memberId: string) {
  const claims = await listMemberClaims(guildId, memberId);
  return claims.length;
}

/** Deletes the member's claims; roles already granted stay with the member. */
export async function deleteMemberReferences(guildId: string, memberId: string) {
  const claims = await listMemberClaims(guildId, memberId);
  await deleteAll([], claims);
  return `Deleted ${claims.length} reaction-role claim${claims.length === 1 ? '' : 's'} of member ${memberId} in guild ${guildId}; roles already granted stay with the member.`;
}
