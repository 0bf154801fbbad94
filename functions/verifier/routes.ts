import { type Route, route } from '#shared/http/route.js';
import {
  moduleStateRoutes,
  privacyCountRoute,
  privacyDeleteRoute,
  settingsDeleteRoute,
  settingsReadRoute,
  settingsUpdateRoute,
} from '../module-state/routes.js';
import {
  DeletedSettingsAnswer,
  SettingsAnswer,
  SettingsBody,
  EntriesAnswer,
  EntriesQuery,
  EntryPath,
  EntryAnswer,
  CreateBody,
  CreatedAnswer,
  HandleBody,
  MessageAnswer,
  WebPath,
  WebQuery,
} from './schemas.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { guildQuery } from '#shared/http/schemas.js';
import { answerFailures } from '#shared/platform/interaction.js';
import { webErrorPage, webAnswer } from './web-answers.js';

const base = '/modules/verifier';

export const getSettings = settingsReadRoute('verifier', { summary: "A guild's verifier settings", response: SettingsAnswer });
export const updateSettings = settingsUpdateRoute('verifier', {
  summary: "Change a guild's verifier settings",
  body: SettingsBody,
  owned: checkOwned,
  response: SettingsAnswer,
});
export const deleteSettings = settingsDeleteRoute('verifier', {
  summary: 'Remove all verifier data of a guild and reset the module',
  response: DeletedSettingsAnswer,
});
export const privacyGetUserEntries = privacyCountRoute('verifier', "Count a member's verifications");
export const privacyDeleteUserEntries = privacyDeleteRoute('verifier', "Delete a member's verifications");

export const listEntries = route({
  id: 'verifier.list-entries',
  method: 'GET',
  path: `${base}/entries`,
  access: 'client',
  summary: "A guild's verifications, newest first",
  query: EntriesQuery,
  response: EntriesAnswer,
});

export const getEntry = route({
  id: 'verifier.get-entry',
  method: 'GET',
  path: `${base}/entries/{entry_id}`,
  access: 'client',
  summary: 'One verification',
  params: EntryPath,
  query: guildQuery,
  response: EntryAnswer,
});

export const createVerification = route({
  id: 'verifier.create-verification',
  method: 'POST',
  path: `${base}/event/create-verification`,
  access: 'internal',
  summary: 'Post a verification prompt for a member',
  body: CreateBody,
  actor: 'required',
  response: CreatedAnswer,
  answerFailures: answerFailures('The verification was not started.'),
});

export const handleVerification = route({
  id: 'verifier.handle-verification',
  method: 'POST',
  path: `${base}/event/handle-verification`,
  access: 'internal',
  summary: "A member answers their verification's prompt",
  body: HandleBody,
  actor: 'required',
  response: MessageAnswer,
});

export const webPage = route({
  id: 'verifier.web-page',
  method: 'GET',
  path: `${base}/web/{verifier_id}`,
  access: 'public',
  summary: 'The verification web page (its one-time token is the credential)',
  params: WebPath,
  query: WebQuery,
  errorPage: webErrorPage,
  response: webAnswer('The verification page'),
});

export const webVerify = route({
  id: 'verifier.web-verify',
  method: 'POST',
  path: `${base}/web/{verifier_id}`,
  access: 'public',
  summary: 'Verify on the web page',
  params: WebPath,
  query: WebQuery,
  errorPage: webErrorPage,
  response: webAnswer('The page saying the member is verified'),
});

export const routes: Route[] = [
  ...moduleStateRoutes('verifier'),
  getSettings,
  updateSettings,
  deleteSettings,
  listEntries,
  getEntry,
  createVerification,
  handleVerification,
  webPage,
  webVerify,
  privacyGetUserEntries,
  privacyDeleteUserEntries,
];
