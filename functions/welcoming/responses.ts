/**
 * Responses: the welcome and leave messages a guild keeps, at most 20 of
 * each type. The limit is a condition on the registry (store.ts); the record
 * is written first and taken back when the registry is full, so a crash in
 * between can only leave the guild one response over, never locked out.
 */
import { recordIdAhead } from '#shared/db/record-ids.js';
import { unprocessable } from '#shared/errors.js';
import { requireEnabled, requireEnabledRecord, requireEnabledWhile } from '#shared/modules/state.js';
import { ResponseEntity, mintOrderedId, quoted } from './keys.js';
import { MAX_RESPONSES_PER_TYPE, type ResponseTypeValue, type WelcomeResponse } from './model.js';
import { MODULE, forgetNamedResponse } from './settings.js';
import { deleteResponseItem, insertResponse, register, responsePlace, unregister } from './store.js';
import { readPage } from '#shared/db/page.js';

export interface CreateResponseInput {
  response_type: number;
  is_embed: boolean;
  content: string;
}

/** More than a guild's responses can be (20 of each of 3 types, one over after a crash): the list is one page. */
const WHOLE_LIST = 1000;

/**
 * Every response (of a type), newest first: one page of the whole list, which
 * ends early only when the responses would pass the answer's bytes, its
 * `next_cursor` continuing right after (behaviour §15).
 */
export async function listResponseRecords(guildId: string, query: { response_type?: number | undefined; cursor?: string | undefined }) {
  const type = query.response_type as ResponseTypeValue | undefined;
  const scope = { guildId, family: 'welcoming/responses', filter: { response_type: type === undefined ? null : String(type) } };
  const [, { items, next_cursor }] = await requireEnabledWhile(guildId, MODULE, () =>
    readPage(ResponseEntity, { guildId }, { page: 1, page_size: WHOLE_LIST, cursor: query.cursor }, { scope, reverse: true, filter: { response_type: type } }),
  );
  return { responses: items, next_cursor };
}

/** The response, when the module is enabled (409 first, then 404): both read in one request. */
async function requireResponse(guildId: string, responseId: string): Promise<WelcomeResponse> {
  return requireEnabledRecord(guildId, MODULE, ResponseEntity, { guildId, responseId }, `Guild ${guildId} has no welcoming response ${quoted(responseId)}.`);
}

export async function getResponseRecord(guildId: string, responseId: string) {
  return { response: await requireResponse(guildId, responseId) };
}

export async function createResponse(guildId: string, input: CreateResponseInput) {
  const id = recordIdAhead('welcoming.response');
  await requireEnabled(guildId, MODULE);
  const now = Date.now();
  const response: WelcomeResponse = {
    id: await id,
    guild_id: guildId,
    response_id: mintOrderedId(now),
    response_type: input.response_type as ResponseTypeValue,
    is_embed: input.is_embed,
    content: input.content,
    created_at: new Date(now).toISOString(),
  };
  if (!(await insertResponse(response))) throw new Error(`minted response ID ${response.response_id} already exists`);
  if ((await register(guildId, responsePlace(response), response.created_at, MAX_RESPONSES_PER_TYPE)) !== 'ok') {
    await deleteResponseItem(guildId, response.response_id);
    throw unprocessable(
      `Guild ${guildId} already has ${MAX_RESPONSES_PER_TYPE} responses of type ${response.response_type}, the most it may keep; delete one first.`,
    );
  }
  return { response };
}

/** Deletes a response; settings that named it are set to null. */
export async function deleteResponse(guildId: string, responseId: string) {
  const response = await requireResponse(guildId, responseId);
  await unregister(guildId, responsePlace(response), response.created_at);
  await deleteResponseItem(guildId, responseId);
  await forgetNamedResponse(guildId, responseId);
  return { response };
}
