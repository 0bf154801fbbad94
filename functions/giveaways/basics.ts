/** The giveaways basics (behaviour §5, §11 and §12), served by the endpoints of shared/modules/basics/. */
import { privacyCountEndpoint, privacyDeleteEndpoint } from '#shared/modules/basics/privacy.js';
import { settingsDeleteEndpoint, settingsReadEndpoint, settingsUpdateEndpoint } from '#shared/modules/basics/settings.js';
import { countMemberEntries, deleteMemberEntries } from './privacy.js';
import { DeletedSettingsAnswer, SettingsAnswer, SettingsBody } from './schemas.js';
import { removeGiveaways } from './settings.js';

export const getSettings = settingsReadEndpoint({ response: SettingsAnswer });
export const updateSettings = settingsUpdateEndpoint({ body: SettingsBody, response: SettingsAnswer });
export const deleteSettings = settingsDeleteEndpoint({ response: DeletedSettingsAnswer, remove: removeGiveaways });
export const privacyGetUserEntries = privacyCountEndpoint(countMemberEntries);
export const privacyDeleteUserEntries = privacyDeleteEndpoint(deleteMemberEntries);
