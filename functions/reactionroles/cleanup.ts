/**
 * Removing the module's data: panels whose message or channel is gone, all
 * of a guild's data (module delete), and a member's references (privacy).
 */
import { requireEnabledWhile, requireEnabledWith } from '#shared/modules/state.js';
import { MODULE, type Panel, entryRecords, newestFirst, panelRecord } from './model.js';
import { keyOf } from '#shared/db/batch.js';
import { guildKey } from '#shared/modules/store.js';
import { removal } from '#shared/scheduler/removal.js';
import {
  ClaimEntity,
  ClaimSweepEntity,
  MessageEntity,
  deleteAll,
  findChannelPanels,
  getPanel,
  listMemberClaims,
  listPanelClaims,
  listPanelsConsistently,
  livePanelIds,
} from './store.js';
import { CLAIM_SWEEP_JOB } from './jobs.js';

export { CLAIM_SWEEP_JOB };

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
  const pointer = await requireEnabledWith(guildId, MODULE, MessageEntity, { guildId, channelId, messageId });
  const panel = pointer ? await getPanel(guildId, pointer) : null;
  return panel ? [panel] : [];
}

/**
 * What the module delete removes once the module is reset: every panel,
 * entry and claim of the guild. The panels' messages stay on the platform:
 * this removes data, not messages.
 */
export async function deleteModuleData(guildId: string) {
  const panels = await listPanelsConsistently(guildId);
  await deleteAll(panels, []);
  if (panels.length > 0) await claimSweep.start(guildId, new Date().toISOString());
  return removed(panels);
}

/**
 * The claims of the panels a module delete removed, millions in a large
 * guild, go behind its answer in bounded runs (behaviour §15). Until then
 * they refer to no panel, so nothing reads them: a check finds no panel,
 * and privacy counts only claims of existing panels. Each page of claims is
 * judged against the panels read after it, so claims of a panel made
 * meanwhile (its panel is stored before its first claim) stay.
 */
export const claimSweep = removal({
  job: CLAIM_SWEEP_JOB,
  place: (guildId) => ClaimSweepEntity.key({ guildId }),
  placeEntity: ClaimSweepEntity.name,
  range: (guildId) => ({ pk: guildKey(guildId), prefix: ClaimEntity.prefix }),
  projection: 'pk, sk, panel_id',
  select: async (guildId, _pending, items) => {
    if (items.length === 0) return [];
    const live = await livePanelIds(guildId);
    return items.filter((item) => !live.has(String(item.panel_id))).map(keyOf);
  },
  maxPages: 200,
  pagesEnv: 'REACTIONROLES_SWEEP_PAGES',
});

/** The member's claims that still refer to a panel. */
async function liveClaims(guildId: string, memberId: string) {
  const [claims, live] = await Promise.all([listMemberClaims(guildId, memberId), livePanelIds(guildId)]);
  return claims.filter((claim) => live.has(claim.panel_id));
}

/** How many stored records refer to the member: their claims of existing panels (the module keeps no names). */
export async function countMemberReferences(guildId: string, memberId: string) {
  return (await liveClaims(guildId, memberId)).length;
}

/** Deletes the member's claims; roles already granted stay with the member. */
export async function deleteMemberReferences(guildId: string, memberId: string) {
  // Claims of deleted panels go too, uncounted: they were already gone to every read.
  const [claims, live] = await Promise.all([listMemberClaims(guildId, memberId), livePanelIds(guildId)]);
  await deleteAll([], claims);
  const counted = claims.filter((claim) => live.has(claim.panel_id)).length;
  return `Deleted ${counted} reaction-role claim${counted === 1 ? '' : 's'} of member ${memberId} in guild ${guildId}; roles already granted stay with the member.`;
}
