/** The welcoming basics (behaviour §5, §11, §12 and §3.5), served by the endpoints of shared/modules/basics/. */
import { privacyCountEndpoint, privacyDeleteEndpoint } from '#shared/modules/basics/privacy.js';
import { settingsDeleteEndpoint, settingsReadEndpoint, settingsUpdateEndpoint } from '#shared/modules/basics/settings.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { DeleteSettingsAnswer, SettingsAnswer } from './model.js';
import { countMemberEntries, deleteMemberEntries } from './privacy.js';
import { SettingsBody } from './schemas.js';
import { checkedChanges, removeWelcoming } from './settings.js';

export const getSettings = settingsReadEndpoint({ response: SettingsAnswer });
/** Changes only the fields given non-null; "" clears a channel or response ID (behaviour §3.5). */
export const updateSettings = settingsUpdateEndpoint({ body: SettingsBody, owned: checkOwned, response: SettingsAnswer, prepare: checkedChanges });
/** Works in any module state: resets the module and removes its responses, timed roles and grants. */
export const deleteSettings = settingsDeleteEndpoint({ response: DeleteSettingsAnswer, remove: removeWelcoming });
export const privacyGetUserEntries = privacyCountEndpoint(countMemberEntries);
export const privacyDeleteUserEntries = privacyDeleteEndpoint(deleteMemberEntries);
