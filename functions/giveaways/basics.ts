/** The giveaways basics (behaviour §5, §11 and §12), served by the endpoints of shared/modules/basics/. */
import { privacyCountEndpoint, privacyDeleteEndpoint } from '#shared/modules/basics/privacy.js';
import { settingsDeleteEndpoint, settingsReadEndpoint, settingsUpdateEndpoint } from '#shared/modules/basics/settings.js';
import { countMemberEntries, deleteMemberEntries } from './privacy.js';
import { removeGiveaways } from './settings.js';
import * as routes from './routes.js';

export const getSettings = /* @__PURE__ */ settingsReadEndpoint(routes.getSettings);
export const updateSettings = /* @__PURE__ */ settingsUpdateEndpoint(routes.updateSettings);
export const deleteSettings = /* @__PURE__ */ settingsDeleteEndpoint(routes.deleteSettings, removeGiveaways);
export const privacyGetUserEntries = /* @__PURE__ */ privacyCountEndpoint(routes.privacyGetUserEntries, countMemberEntries);
export const privacyDeleteUserEntries = /* @__PURE__ */ privacyDeleteEndpoint(routes.privacyDeleteUserEntries, deleteMemberEntries);
