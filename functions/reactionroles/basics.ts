/** The reaction-roles basics (behaviour §5 and §12): no settings, but the module delete and the privacy pair, served by the endpoints of shared/modules/basics/. */
import { privacyCountEndpoint, privacyDeleteEndpoint } from '#shared/modules/basics/privacy.js';
import { settingsDeleteEndpoint } from '#shared/modules/basics/settings.js';
import { countMemberReferences, deleteMemberReferences, deleteModuleData } from './cleanup.js';
import * as routes from './routes.js';

/** `DELETE /modules/reactionroles/delete`, in any module state: resets the module and removes every panel, entry and claim. */
export const deleteSettings = /* @__PURE__ */ settingsDeleteEndpoint(routes.deleteSettings, deleteModuleData);
export const privacyGetUserEntries = /* @__PURE__ */ privacyCountEndpoint(routes.privacyGetUserEntries, countMemberReferences);
/** The member's claims go; roles already granted stay with the member. */
export const privacyDeleteUserEntries = /* @__PURE__ */ privacyDeleteEndpoint(routes.privacyDeleteUserEntries, deleteMemberReferences);
