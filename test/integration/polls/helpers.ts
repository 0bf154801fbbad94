import type { components } from '../../../clients/typescript/schema.js';
import { expect } from 'vitest';
import type { Message } from '#test/helpers/sandbox.js';
import { type CallResult, type TestService, snowflake } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';

/** Waits until `check` answers something other than undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined | false | null>, timeoutMs = 15_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false && value !== null) return value as T;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A guild with the polls module enabled, and a channel in it. */
export async function pollGuild(service: TestService): Promise<{ guild: string; channel: string; owner: string }> {
  const guild = snowflake();
  const res = await service.call('POST', '/modules/polls/enable', { body: { guild_id: guild } });
  expect(res.status).toBe(200);
  return { guild, channel: await sandboxOf(service).channelIn(guild), owner: snowflake() };
}

export const answer = (answer_text: string, extra: Record<string, unknown> = {}) => ({
  answer_text,
  label: null,
  description: null,
  emoji_name: null,
  emoji_id: null,
  ...extra,
});

/** A complete create body for a service poll with buttons; `extra` overrides any field. */
export function pollBody(where: { guild: string; channel: string; owner: string }, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    guild_id: where.guild,
    channel_id: where.channel,
    poll_type: 2,
    message_id: null,
    poll_duration: '1h',
    poll_answer_type: 2,
    question: 'Where do we meet?',
    description: 'Pick a place',
    answers: [answer('Park'), answer('Cafe'), answer('Library')],
    is_multi_select: false,
    is_anonymous: false,
    max_votes_per_answer: 1,
    poll_owner_id: where.owner,
    application_id: null,
    token: null,
    ...extra,
  };
}

export async function createPoll(service: TestService, where: { guild: string; channel: string; owner: string }, extra: Record<string, unknown> = {}) {
  const res = await service.call('POST', '/modules/polls/entries', { looseBody: pollBody(where, extra) });
  expect(res.status, res.text).toBe(200);
  return res.body.data.poll as PollRecord;
}

/** A vote body; by default by poll and answer ID. */
export function voteBody(guild: string, channel: string, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    guild_id: guild,
    poll_id: null,
    answer_id: null,
    action: 'add',
    message_id: null,
    emoji_id: null,
    emoji_name: null,
    channel_id: channel,
    interacted_message_id: null,
    application_id: null,
    token: null,
    ...extra,
  };
}

export function castVote(service: TestService, member: string, body: Record<string, unknown>): Promise<CallResult> {
  return service.call('POST', '/modules/polls/entry/vote', { looseBody: body, headers: { 'x-acting-user-id': member } });
}

export async function getPoll(service: TestService, guild: string, pollId: string): Promise<CallResult> {
  return service.call('GET', `/modules/polls/entry/${pollId}`, { query: { guild_id: guild } });
}

/** The poll's message on the sandbox platform (null when gone). */
export function messageOf(service: TestService, poll: Pick<PollRecord, 'channel_id' | 'message_id'>): Promise<Message | null> {
  return sandboxOf(service).message(poll.channel_id, poll.message_id!);
}

/** The embed description of a service poll's message. */
export async function shownText(service: TestService, poll: PollRecord): Promise<string> {
  const message = await messageOf(service, poll);
  return message?.embeds[0]?.description ?? '';
}

/** A poll as the service answers it: the typed client's schema. */
export type PollRecord = components['schemas']['Poll'];

/** The exact field list of a poll record (behaviour §6). */
export const POLL_FIELDS = [
  'answers',
  'channel_id',
  'created_at',
  'delete_at',
  'description',
  'edited_with_results',
  'end_time',
  'guild_id',
  'id',
  'is_anonymous',
  'is_multi_select',
  'max_votes_per_answer',
  'message_id',
  'poll_answer_type',
  'poll_id',
  'poll_owner_id',
  'poll_type',
  'question',
  'sent_by_service',
  'status',
];
