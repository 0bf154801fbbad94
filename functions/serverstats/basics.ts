/** The serverstats basics (behaviour §D2, §5, §11 and §12), served by the endpoints of shared/modules/basics/. */
import { privacyCountEndpoint, privacyDeleteEndpoint } from '#shared/modules/basics/privacy.js';
import { settingsDeleteEndpoint, settingsReadEndpoint, settingsUpdateEndpoint } from '#shared/modules/basics/settings.js';
import { countMemberEntries, deleteMemberEntries } from './privacy.js';
import { removeStatistics, storedChanges } from './settings.js';
import * as routes from './routes.js';

export const getSettings = /* @__PURE__ */ settingsReadEndpoint(routes.getSettings);
/** Changes only the fields given non-null; `"create"` makes the category or starboard channel, `""` clears it. */
export const updateSettings = /* @__PURE__ */ settingsUpdateEndpoint(routes.updateSettings, storedChanges);
/** Works in any module state: resets the module and removes all its data of the guild. */
export const deleteSettings = /* @__PURE__ */ settingsDeleteEndpoint(routes.deleteSettings, removeStatistics);
export const privacyGetUserEntries = /* @__PURE__ */ privacyCountEndpoint(routes.privacyGetUserEntries, countMemberEntries);
export const privacyDeleteUserEntries = /* @__PURE__ */ privacyDeleteEndpoint(routes.privacyDeleteUserEntries, deleteMemberEntries);
