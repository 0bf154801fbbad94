/** The invite tracker's basics (behaviour §5, §11 and §12), served by the endpoints of shared/modules/basics/. */
import { privacyCountEndpoint, privacyDeleteEndpoint } from '#shared/modules/basics/privacy.js';
import { settingsDeleteEndpoint, settingsReadEndpoint, settingsUpdateEndpoint } from '#shared/modules/basics/settings.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { countMemberEntries, deleteMemberEntries } from './privacy.js';
import { DeletedSettingsAnswer, SettingsAnswer, SettingsBody } from './schemas.js';
import { checkedChanges, removeInvites } from './settings.js';

export const getSettings = settingsReadEndpoint({ response: SettingsAnswer });
/** Changes only the fields given non-null; `""` clears a channel. */
export const updateSettings = settingsUpdateEndpoint({ body: SettingsBody, owned: checkOwned, response: SettingsAnswer, prepare: checkedChanges });
export const deleteSettings = settingsDeleteEndpoint({ response: DeletedSettingsAnswer, remove: removeInvites });
export const privacyGetUserEntries = privacyCountEndpoint(countMemberEntries);
export const privacyDeleteUserEntries = privacyDeleteEndpoint(deleteMemberEntries);
