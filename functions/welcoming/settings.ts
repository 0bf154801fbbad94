/**
 * The module's settings (behaviour §5, §11 and §3.5): the settings the checks
 * read, a change's check of the responses it names, keeping settings off
 * deleted responses, and what the settings-delete operation removes: the
 * responses, timed roles and pending grants.
 */
import { unprocessable } from '#shared/errors.js';
import { requireEnabled } from '#shared/modules/state.js';
import { answerList, readModuleState, writeSettings } from '#shared/modules/store.js';
import { cancelGuildWork } from './grants.js';
import { quoted } from './keys.js';
import { RESPONSE_SETTINGS, ResponseType, type ResponseTypeValue, type WelcomingSettings } from './model.js';
import type { SettingsChanges } from './schemas.js';
import { deleteModuleItems, findResponse } from './store.js';

export const MODULE = 'welcoming';

const TYPE_NAMES: Record<ResponseTypeValue, string> = {
  [ResponseType.DmWelcome]: 'a DM welcome (type 1)',
  [ResponseType.ChannelWelcome]: 'a channel welcome (type 2)',
  [ResponseType.ChannelLeave]: 'a channel leave (type 3)',
};

/** The settings of the module, which must be enabled. */
export async function requireSettings(guildId: string): Promise<WelcomingSettings> {
  return (await requireEnabled(guildId, MODULE)).settings as unknown as WelcomingSettings;
}

/** A response a setting names must be one of this guild's responses of the setting's type (422 otherwise). */
async function checkNamedResponses(guildId: string, changes: SettingsChanges): Promise<void> {
  for (const [type, rule] of Object.entries(RESPONSE_SETTINGS)) {
    const responseId = changes[rule.named];
    if (typeof responseId !== 'string') continue;
    const response = await findResponse(guildId, responseId);
    const wanted = Number(type) as ResponseTypeValue;
    if (!response)
      throw unprocessable(
        `Field '${rule.named}': guild ${guildId} has no response ${quoted(responseId)}; name one of GET /modules/welcoming/responses, or send "" to clear it.`,
      );
    if (response.response_type !== wanted) {
      throw unprocessable(
        `Field '${rule.named}': response '${responseId}' is ${TYPE_NAMES[response.response_type]}, but this setting names ${TYPE_NAMES[wanted]}.`,
      );
    }
  }
}

/** The changes as given, once the responses they name are checked. */
export async function checkedChanges(guildId: string, changes: SettingsChanges) {
  await checkNamedResponses(guildId, changes);
  return { ...changes };
}

/**
 * A deleted response is no longer named by any setting. Settings that named
 * it are set to null with a write conditional on the version read; a check
 * that still finds a stale name (a race with a settings change) falls back to
 * the oldest response.
 */
export async function forgetNamedResponse(guildId: string, responseId: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const state = await readModuleState(guildId, MODULE);
    if (!state?.enabled || !state.settings) return;
    const fields = Object.values(RESPONSE_SETTINGS)
      .filter((rule) => state.settings![rule.named] === responseId)
      .map((rule): [string, unknown] => [rule.named, null]);
    if (fields.length === 0 || (await writeSettings(guildId, MODULE, fields, state.version))) return;
  }
}

/** Answers what it removed: the responses as many as fit, with `responses_total` (behaviour §15), and the timed roles. */
export async function removeWelcoming(guildId: string) {
  // The timed roles first: from then on their grants own nothing (a due one is cancelled) and go behind the answer.
  const removed = await deleteModuleItems(guildId);
  // Without timed roles nothing is due: a catch-up left by timed roles deleted before finds none and ends by itself.
  if (removed.timedRoles.length > 0) await cancelGuildWork(guildId);
  return { ...answerList('responses', removed.responses.reverse()), timedroles: removed.timedRoles.reverse() };
}
