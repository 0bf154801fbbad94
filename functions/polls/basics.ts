/** The polls basics (behaviour §5, §6 and §12), served by the endpoints of shared/modules/basics/. */
import { privacyCountEndpoint, privacyDeleteEndpoint } from '#shared/modules/basics/privacy.js';
import { settingsDeleteEndpoint, settingsReadEndpoint, settingsUpdateEndpoint } from '#shared/modules/basics/settings.js';
import { countMemberEntries, deleteMemberEntries } from './privacy.js';
import { DeletedSettingsAnswer, PollSettingsAnswer, SettingsBody } from './schemas.js';
import { removePolls } from './settings.js';

export const getSettings = settingsReadEndpoint({ response: PollSettingsAnswer });
export const updateSettings = settingsUpdateEndpoint({ body: SettingsBody, response: PollSettingsAnswer });
export const deleteSettings = settingsDeleteEndpoint({ response: DeletedSettingsAnswer, remove: removePolls });
export const privacyGetUserEntries = privacyCountEndpoint(countMemberEntries);
export const privacyDeleteUserEntries = privacyDeleteEndpoint(deleteMemberEntries);
