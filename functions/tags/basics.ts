/** The tags basics (behaviour §5 and §12): no settings, but the settings-delete operation and the privacy pair, served by the endpoints of shared/modules/basics/. */
import { privacyCountEndpoint, privacyDeleteEndpoint } from '#shared/modules/basics/privacy.js';
import { settingsDeleteEndpoint } from '#shared/modules/basics/settings.js';
import { countMemberEntries, deleteMemberEntries, removeTags } from './tags.js';
import * as routes from './routes.js';

/** Works in any module state: resets the module and removes every tag and name of the guild. */
export const deleteSettings = /* @__PURE__ */ settingsDeleteEndpoint(routes.deleteSettings, removeTags);
export const privacyGetUserEntries = /* @__PURE__ */ privacyCountEndpoint(routes.privacyGetUserEntries, countMemberEntries);
/** The member's tags are deleted. */
export const privacyDeleteUserEntries = /* @__PURE__ */ privacyDeleteEndpoint(routes.privacyDeleteUserEntries, deleteMemberEntries);
