/** The serverstats basics (behaviour §D2, §5, §11 and §12), served by the endpoints of shared/modules/basics/. */
import { privacyCountEndpoint, privacyDeleteEndpoint } from '#shared/modules/basics/privacy.js';
import { settingsDeleteEndpoint, settingsReadEndpoint, settingsUpdateEndpoint } from '#shared/modules/basics/settings.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { countMemberEntries, deleteMemberEntries } from './privacy.js';
import { DeletedAnswer, SettingsAnswer, SettingsBody } from './schemas.js';
import { removeStatistics, storedChanges } from './settings.js';

export const getSettings = settingsReadEndpoint({ response: SettingsAnswer });
/** Changes only the fields given non-null; `"create"` makes the category or starboard channel, `""` clears it. */
export const updateSettings = settingsUpdateEndpoint({ body: SettingsBody, owned: checkOwned, response: SettingsAnswer, prepare: storedChanges });
/** Works in any module state: resets the module and removes all its data of the guild. */
export const deleteSettings = settingsDeleteEndpoint({ response: DeletedAnswer, remove: removeStatistics });
export const privacyGetUserEntries = privacyCountEndpoint(countMemberEntries);
export const privacyDeleteUserEntries = privacyDeleteEndpoint(deleteMemberEntries);
