import { type Route, route } from '#shared/http/route.js';
import { moduleStateRoutes, privacyCountRoute, privacyDeleteRoute, settingsDeleteRoute } from '../module-state/routes.js';
import { DeleteSettingsAnswer, TagsPageAnswer, TagAnswer, MessageAnswer } from './model.js';
import { ListTagsQuery, CreateTagBody, GuildQuery, TagPath, EditTagBody, DeleteTagBody, SendTagBody } from './schemas.js';
import { answerFailures } from '#shared/platform/interaction.js';
import { checkOwned } from '#shared/platform/ownership.js';

const base = '/modules/tags';

export const deleteSettings = settingsDeleteRoute('tags', {
  summary: 'Remove every tag and name of a guild and reset the module',
  response: DeleteSettingsAnswer,
});
export const privacyGetUserEntries = privacyCountRoute('tags', "Count a member's tags");
export const privacyDeleteUserEntries = privacyDeleteRoute('tags', "Delete a member's tags");

export const listEntries = route({
  id: 'tags.list-entries',
  method: 'GET',
  path: `${base}/entries`,
  access: 'client',
  summary: 'Tags with their names, newest first; name= finds the tag holding a name',
  query: ListTagsQuery,
  response: TagsPageAnswer,
});

export const createEntry = route({
  id: 'tags.create-entry',
  method: 'POST',
  path: `${base}/entries`,
  access: 'client',
  summary: 'Create a tag with 1..10 names unique in the guild',
  body: CreateTagBody,
  answerFailures: answerFailures('The tag was not created.'),
  response: TagAnswer,
});

export const getEntry = route({
  id: 'tags.get-entry',
  method: 'GET',
  path: `${base}/entries/{entry_id}`,
  access: 'client',
  summary: 'One tag with its names',
  query: GuildQuery,
  params: TagPath,
  response: TagAnswer,
});

export const updateEntry = route({
  id: 'tags.update-entry',
  method: 'PUT',
  path: `${base}/entries/{entry_id}`,
  access: 'client',
  summary: 'Edit a tag (owner only): fields given non-null; names replace every name',
  body: EditTagBody,
  params: TagPath,
  answerFailures: answerFailures('The tag was not changed.'),
  response: TagAnswer,
});

export const deleteEntry = route({
  id: 'tags.delete-entry',
  method: 'DELETE',
  path: `${base}/entries/{entry_id}`,
  access: 'client',
  summary: 'Delete a tag (owner only); its names are free again',
  body: DeleteTagBody,
  params: TagPath,
  answerFailures: answerFailures('The tag was not deleted.'),
  response: TagAnswer,
});

export const sendEntry = route({
  id: 'tags.send-entry',
  method: 'POST',
  path: `${base}/entries/{entry_id}/send`,
  access: 'internal',
  summary: 'Post a tag in a channel or as the answer to an interaction',
  body: SendTagBody,
  owned: checkOwned,
  params: TagPath,
  response: MessageAnswer,
});

export const routes: Route[] = [
  ...moduleStateRoutes('tags'),

  deleteSettings,

  listEntries,
  createEntry,
  getEntry,
  updateEntry,
  deleteEntry,
  sendEntry,

  privacyGetUserEntries,
  privacyDeleteUserEntries,
];
