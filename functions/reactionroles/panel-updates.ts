/**
 * Changing a stored panel safely: optimistic writes on the panel item, and
 * showing a committed change on the platform, undoing it when the platform
 * refuses so that a failed request leaves nothing behind.
 */
import { databaseFailed, notFound } from '#shared/errors.js';
import { requireEnabledRecord } from '#shared/modules/state.js';
import { MODULE, type Panel } from './model.js';
import { syncPanelMessage } from './panel-message.js';
import { PanelEntity, getPanel, replacePanel } from './store.js';
import { errorField, log } from '#shared/observe/log.js';

/** Attempts of one optimistic write before the table counts as too busy. */
const MAX_WRITE_ATTEMPTS = 25;
/** Rounds of catching up with changes other requests committed meanwhile. */
const MAX_CATCH_UP_ROUNDS = 3;

const panelMissing = (guildId: string, panelId: string) => `Guild ${guildId} has no reaction-role panel '${panelId}'.`;

async function loadPanel(guildId: string, panelId: string): Promise<Panel> {
  const panel = await getPanel(guildId, panelId);
  if (!panel) throw notFound(panelMissing(guildId, panelId));
  return panel;
}

/** The panel, when the module is enabled (409 otherwise, then 404 for no panel): both read in one request. */
export async function loadEnabledPanel(guildId: string, panelId: string): Promise<Panel> {
  return requireEnabledRecord(guildId, MODULE, PanelEntity, { guildId, panelId }, panelMissing(guildId, panelId));
}

/**
 * Reads the panel (the first time, `read` when the caller just read it),
 * applies `change` (which throws when a rule is broken) and writes the
 * result if nobody wrote in between; otherwise reads again.
 */
export async function updatePanel(guildId: string, panelId: string, change: (panel: Panel) => Panel, read?: Panel): Promise<{ before: Panel; after: Panel }> {
  for (let attempt = 0; attempt < MAX_WRITE_ATTEMPTS; attempt++) {
    const before = attempt === 0 && read ? read : await loadPanel(guildId, panelId);
    const after = await replacePanel(change(before));
    if (after) return { before, after };
  }
  throw databaseFailed(`Panel '${panelId}' is being changed by many requests at once; try again shortly.`);
}

/**
 * Shows a committed change (`before` -> `after`) on the platform. When the
 * platform refuses, `undo` takes the change back out of the stored panel
 * (applied to whatever is stored by then), the message is brought back, and
 * the platform's error answers. After success, changes other requests
 * committed meanwhile are shown too, so concurrent edits end with the
 * message matching the stored panel. A change the message does not show
 * (roles, say) touched nothing there, so it has nothing to catch up on:
 * each change it shows catches up after itself.
 */
export async function publishChange(before: Panel, after: Panel, undo: (current: Panel) => Panel): Promise<void> {
  let shown: boolean;
  try {
    shown = await syncPanelMessage(before, after);
  } catch (error) {
    try {
      const { after: restored } = await updatePanel(after.guild_id, after.panel_id, undo);
      await syncPanelMessage(after, restored);
    } catch (undoError) {
      log('error', 'could not undo a panel change', { panel_id: after.panel_id, error: errorField(undoError) });
    }
    throw error;
  }
  if (shown) await catchUp(after);
}

/** Re-reads the panel and shows what changed since `shown`, a few rounds at most. */
export async function catchUp(shown: Panel): Promise<void> {
  for (let round = 0; round < MAX_CATCH_UP_ROUNDS; round++) {
    const latest = await getPanel(shown.guild_id, shown.panel_id);
    if (!latest || latest.version === shown.version) return;
    try {
      await syncPanelMessage(shown, latest);
    } catch (error) {
      // The request that made that change answers for it.
      log('warn', 'could not show a concurrent panel change', { panel_id: shown.panel_id, error: errorField(error) });
      return;
    }
    shown = latest;
  }
}
