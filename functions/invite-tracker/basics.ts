/** The invite tracker's basics (behaviour §5, §11 and §12), served by the endpoints of shared/modules/basics/. */
import { privacyCountEndpoint, privacyDeleteEndpoint } from '#shared/modules/basics/privacy.js';
import { settingsDeleteEndpoint, settingsReadEndpoint, settingsUpdateEndpoint } from '#shared/modules/basics/settings.js';
import { countMemberEntries, deleteMemberEntries } from './privacy.js';
import { checkedChanges, removeInvites } from './settings.js';
import * as routes from './routes.js';

export const getSettings = /* @__PURE__ */ settingsReadEndpoint(routes.getSettings);
/** Changes only the fields given non-null; `""` clears a channel. */
export const updateSettings = /* @__PURE__ */ settingsUpdateEndpoint(routes.updateSettings, checkedChanges);
export const deleteSettings = /* @__PURE__ */ settingsDeleteEndpoint(routes.deleteSettings, removeInvites);
export const privacyGetUserEntries = /* @__PURE__ */ privacyCountEndpoint(routes.privacyGetUserEntries, countMemberEntries);
export const privacyDeleteUserEntries = /* @__PURE__ */ privacyDeleteEndpoint(routes.privacyDeleteUserEntries, deleteMemberEntries);
