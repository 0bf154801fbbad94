/** The verifier's basics (behaviour §5, §11 and §12), served by the endpoints of shared/modules/basics/. */
import { privacyCountEndpoint, privacyDeleteEndpoint } from '#shared/modules/basics/privacy.js';
import { settingsDeleteEndpoint, settingsReadEndpoint, settingsUpdateEndpoint } from '#shared/modules/basics/settings.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { countMemberEntries, deleteMemberEntries } from './privacy.js';
import { DeletedSettingsAnswer, SettingsAnswer, SettingsBody } from './schemas.js';
import { removeVerifications, storedChanges } from './settings.js';

export const getSettings = settingsReadEndpoint({ response: SettingsAnswer });
/** Changes only the fields given non-null; `""` as the channel sends prompts as DMs; type 2 needs a passphrase. */
export const updateSettings = settingsUpdateEndpoint({ body: SettingsBody, owned: checkOwned, response: SettingsAnswer, prepare: storedChanges });
/** Works in any module state: resets the module and removes every verification of the guild. */
export const deleteSettings = settingsDeleteEndpoint({ response: DeletedSettingsAnswer, remove: removeVerifications });
export const privacyGetUserEntries = privacyCountEndpoint(countMemberEntries);
export const privacyDeleteUserEntries = privacyDeleteEndpoint(deleteMemberEntries);
