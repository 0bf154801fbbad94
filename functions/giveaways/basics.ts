/** The giveaways basics (behaviour §5, §11 and §12), served by the endpoints of shared/modules/basics/. */
import { privacyCountEndpoint, privacyDeleteEndpoint } from '#shared/modules/basics/privacy.js';
import { settingsDeleteEndpoint, settingsReadEndpoint, settingsUpdateEndpoint } from '#shared/modules/basics/settings.js';
import { countMemberEntries, deleteMemberEntries } from './privacy.js';
import { removeGiveaways } from './settings.js';
import * as routes from './routes.js';

export const getSettings = settingsReadEndpoint(routes.getSettings);
export const updateSettings = settingsUpdateEndpoint(routes.updateSettings);
export const deleteSettings = settingsDeleteEndpoint(routes.deleteSettings, removeGiveaways);
export const privacyGetUserEntries = privacyCountEndpoint(routes.privacyGetUserEntries, countMemberEntries);
export const privacyDeleteUserEntries = privacyDeleteEndpoint(routes.privacyDeleteUserEntries, deleteMemberEntries);
