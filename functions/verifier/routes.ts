import { guildBody, privacyQuery } from '#shared/http/schemas.js';
import type { Route } from '#shared/http/route.js';

import { SettingsBody, EntriesQuery, EntryPath, CreateBody, HandleBody, WebPath, WebQuery } from './schemas.js';
import { checkOwned } from '#shared/platform/ownership.js';
import { guildQuery } from '#shared/http/schemas.js';
import { answerFailures } from '#shared/platform/interaction.js';
import { webErrorPage } from './web-answers.js';

/** The module's state routes (behaviour §5), served by functions/module-state/. */
export const home = {
  id: 'verifier.home',
  method: 'GET',
  path: '/modules/verifier/',
  access: 'public',
  summary: 'Home of the verifier module',
  file: 'functions/module-state/home.ts',
} as const satisfies Route;
export const status = {
  id: 'verifier.status',
  method: 'GET',
  path: '/modules/verifier/status',
  access: 'client',
  summary: 'Whether verifier is enabled for a guild',
  file: 'functions/module-state/status.ts',
  query: guildQuery,
} as const satisfies Route;
export const enable = {
  id: 'verifier.enable',
  method: 'POST',
  path: '/modules/verifier/enable',
  access: 'client',
  summary: 'Enable verifier for a guild',
  file: 'functions/module-state/enable.ts',
  body: guildBody,
} as const satisfies Route;
export const disable = {
  id: 'verifier.disable',
  method: 'POST',
  path: '/modules/verifier/disable',
  access: 'client',
  summary: 'Disable verifier for a guild',
  file: 'functions/module-state/disable.ts',
  body: guildBody,
} as const satisfies Route;

export const getSettings = {
  id: 'verifier.get-settings',
  method: 'GET',
  path: '/modules/verifier/settings',
  access: 'client',
  summary: "A guild's verifier settings",
  file: 'functions/verifier/basics.ts',
  handler: 'getSettings',
  query: guildQuery,
} as const satisfies Route;
export const updateSettings = {
  id: 'verifier.update-settings',
  method: 'PUT',
  path: '/modules/verifier/settings',
  access: 'client',
  summary: "Change a guild's verifier settings",
  file: 'functions/verifier/basics.ts',
  handler: 'updateSettings',
  body: SettingsBody,
  owned: checkOwned,
} as const satisfies Route;
export const deleteSettings = {
  id: 'verifier.delete-settings',
  method: 'DELETE',
  path: '/modules/verifier/settings',
  access: 'client',
  summary: 'Remove all verifier data of a guild and reset the module',
  file: 'functions/verifier/basics.ts',
  handler: 'deleteSettings',
  body: guildBody,
} as const satisfies Route;
export const privacyGetUserEntries = {
  id: 'verifier.privacy-get-user-entries',
  method: 'GET',
  path: '/modules/verifier/privacy/get-user-entries',
  access: 'internal',
  summary: "Count a member's verifications",
  file: 'functions/verifier/basics.ts',
  handler: 'privacyGetUserEntries',
  query: privacyQuery,
} as const satisfies Route;
export const privacyDeleteUserEntries = {
  id: 'verifier.privacy-delete-user-entries',
  method: 'DELETE',
  path: '/modules/verifier/privacy/delete-user-entries',
  access: 'internal',
  summary: "Delete a member's verifications",
  file: 'functions/verifier/basics.ts',
  handler: 'privacyDeleteUserEntries',
  body: privacyQuery,
} as const satisfies Route;

export const listEntries = {
  id: 'verifier.list-entries',
  method: 'GET',
  path: '/modules/verifier/entries',
  access: 'client',
  summary: "A guild's verifications, newest first",
  query: EntriesQuery,
} as const satisfies Route;

export const getEntry = {
  id: 'verifier.get-entry',
  method: 'GET',
  path: '/modules/verifier/entries/{entry_id}',
  access: 'client',
  summary: 'One verification',
  params: EntryPath,
  query: guildQuery,
} as const satisfies Route;

export const createVerification = {
  id: 'verifier.create-verification',
  method: 'POST',
  path: '/modules/verifier/event/create-verification',
  access: 'internal',
  summary: 'Post a verification prompt for a member',
  body: CreateBody,
  actor: 'required',
  answerFailures: /* @__PURE__ */ answerFailures('The verification was not started.'),
} as const satisfies Route;

export const handleVerification = {
  id: 'verifier.handle-verification',
  method: 'POST',
  path: '/modules/verifier/event/handle-verification',
  access: 'internal',
  summary: "A member answers their verification's prompt",
  body: HandleBody,
  actor: 'required',
} as const satisfies Route;

export const webPage = {
  id: 'verifier.web-page',
  method: 'GET',
  path: '/modules/verifier/web/{verifier_id}',
  access: 'public',
  summary: 'The verification web page (its one-time token is the credential)',
  params: WebPath,
  query: WebQuery,
  errorPage: webErrorPage,
} as const satisfies Route;

export const webVerify = {
  id: 'verifier.web-verify',
  method: 'POST',
  path: '/modules/verifier/web/{verifier_id}',
  access: 'public',
  summary: 'Verify on the web page',
  params: WebPath,
  query: WebQuery,
  errorPage: webErrorPage,
} as const satisfies Route;

export const routes: Route[] = [
  home,
  status,
  enable,
  disable,
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
