/** The socials basics (behaviour §5 and §6), served by the endpoints of shared/modules/basics/. */
import { privacyCountEndpoint, privacyDeleteEndpoint } from '#shared/modules/basics/privacy.js';
import { settingsDeleteEndpoint, settingsReadEndpoint, settingsUpdateEndpoint } from '#shared/modules/basics/settings.js';
import { countMemberEntries, deleteMemberEntries } from './privacy.js';
import { DeletedSettingsAnswer, SettingsAnswer, SettingsBody } from './schemas.js';
import { removeEntries } from './settings.js';

export const getSettings = settingsReadEndpoint({ response: SettingsAnswer });
export const updateSettings = settingsUpdateEndpoint({ body: SettingsBody, response: SettingsAnswer });
/** Works in any module state: resets the module and removes every entry of the guild. */
export const deleteSettings = settingsDeleteEndpoint({ response: DeletedSettingsAnswer, remove: removeEntries });
export const privacyGetUserEntries = privacyCountEndpoint(countMemberEntries);
export const privacyDeleteUserEntries = privacyDeleteEndpoint(deleteMemberEntries);
