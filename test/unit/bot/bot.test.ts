/**
 * The reference bot's handling of one dispatch: who answers the member of an
 * interaction, what a down service makes the member read, and that nothing a
 * dispatch carries throws. The service and the platform's interaction routes
 * are fakes that record what they were asked.
 */
import { describe, expect, it } from 'vitest';
import { handleDispatch, restOptionsOf } from '../../../clients/bot/bot.js';
import type { Call } from '../../../clients/bot/calls.js';
import { BotMemory } from '../../../clients/bot/memory.js';
import { ModuleStates } from '../../../clients/bot/modules.js';
import type { CallResult } from '../../../clients/bot/service.js';
import { APP, click, interaction, modal, reaction } from './fixtures.js';

/** `enabled`: the service's answer to a module's status (every module on by default). */
function fakes(answer: (call: Call) => Partial<CallResult>, enabled: (module: string) => boolean | null = () => true) {
  const log: string[] = [];
  const asked: string[] = [];
  const modules = new ModuleStates(async (_guild, module) => (asked.push(module), enabled(module)));
  const said: { route: string; body: unknown }[] = [];
  const send = async (call: Call): Promise<CallResult> => {
    log.push(`service ${call.operation}`);
    return { operation: call.operation, status: 200, error: null, attempts: 1, ...answer(call) };
  };
  const api = {
    interactions: {
      deferMessageUpdate: async (id: string) => void log.push(`defer ${id}`),
      followUp: async (app: string, _token: string, body: unknown) => (said.push({ route: `followup ${app}`, body }), {}),
      reply: async (id: string, _token: string, body: unknown) => (said.push({ route: `reply ${id}`, body }), undefined),
    },
  };
  return { log, said, asked, deps: { memory: new BotMemory(), send, api: api as never, modules, read: async () => null } };
}

describe('interactions', () => {
  it('a poll click is acknowledged before the service is called, and the service (not the bot) answers the member', async () => {
    const { log, said, deps } = fakes(() => ({}));
    const line = await handleDispatch(interaction(click('poll:p1:1')), deps);
    expect(log).toEqual(['defer 1100000000000000010', 'service POST /modules/polls/entry/vote']);
    expect(said).toEqual([]);
    expect(line).toMatchObject({ event: 'INTERACTION_CREATE', module: 'polls', calls: [{ operation: 'POST /modules/polls/entry/vote', status: 200 }] });
  });

  it('a refusal the service answered itself (422) is not answered twice', async () => {
    const { said, deps } = fakes(() => ({ status: 422, error: 'Poll p1 is closed' }));
    await handleDispatch(interaction(click('poll:p1:1')), deps);
    expect(said).toEqual([]);
  });

  it('a service that cannot be reached makes the bot tell the member, ephemerally, that nothing changed', async () => {
    const { said, deps } = fakes(() => ({ status: null, error: 'could not be reached', attempts: 4 }));
    const line = await handleDispatch(interaction(click('giveaway:enter:g1')), deps);
    expect(said).toEqual([{ route: `followup ${APP}`, body: { content: expect.stringMatching(/not reachable.*nothing changed/), flags: 64 } }]);
    expect(line).toMatchObject({ told_member: true, calls: [{ status: null, attempts: 4 }] });
  });

  it('a verification the service refused is answered by the bot through the callback, with the reason', async () => {
    const { log, said, deps } = fakes(() => ({ status: 422, error: 'The passphrase is wrong (1 wrong so far).' }));
    await handleDispatch(interaction(modal('verifier:modal:v1', 'nope')), deps);
    expect(log).toEqual(['service POST /modules/verifier/event/handle-verification']);
    expect(said).toEqual([{ route: 'reply 1100000000000000011', body: { content: 'Nothing changed: The passphrase is wrong (1 wrong so far).', flags: 64 } }]);
  });

  it('a verification the service answered is left alone', async () => {
    const { log, said, deps } = fakes(() => ({}));
    await handleDispatch(interaction(click('verifier:click:v1')), deps);
    expect(log).toEqual(['service POST /modules/verifier/event/handle-verification']);
    expect(said).toEqual([]);
  });

  it('an interaction of no module is neither acknowledged nor answered', async () => {
    const { log, said, deps } = fakes(() => ({}));
    expect(await handleDispatch(interaction(click('other-bot:thing')), deps)).toBeNull();
    expect(log).toEqual([]);
    expect(said).toEqual([]);
  });
});

describe('events', () => {
  it('logs one line naming the event, the guild, each operation and its status', async () => {
    const { deps } = fakes((call) => ({ status: call.operation.includes('starboard') ? 200 : 404 }));
    const line = await handleDispatch(reaction(true), deps);
    expect(line).toMatchObject({
      event: 'MESSAGE_REACTION_ADD',
      guild: '1100000000000000001',
      calls: [
        { operation: 'POST /modules/reactionroles/check', status: 404 },
        { operation: 'POST /modules/polls/entry/vote', status: 404 },
        { operation: 'POST /modules/serverstats/starboard/check/add', status: 200 },
      ],
    });
    expect(line!.ms).toEqual(expect.any(Number));
  });

  it('a malformed dispatch is logged as skipped, never thrown', async () => {
    const { log, deps } = fakes(() => ({}));
    await expect(handleDispatch({ t: 'INTERACTION_CREATE', d: { type: 3, data: 42, member: 'x' } }, deps)).resolves.toBeNull();
    await expect(handleDispatch({ t: 'MESSAGE_DELETE_BULK', d: { guild_id: '1', ids: 'not a list' } }, deps)).resolves.toBeNull();
    const thrown = await handleDispatch({ t: 'PRESENCE_UPDATE', d: { guild_id: '1', user: { id: '2' }, activities: 'nope' } }, deps);
    expect(thrown).toMatchObject({ event: 'PRESENCE_UPDATE', skipped: expect.stringContaining('malformed') });
    expect(log).toEqual([]);
  });
});

it("the platform's REST base is split as @discordjs/rest takes it", () => {
  expect(restOptionsOf('http://127.0.0.1:3001/api/v10')).toEqual({ api: 'http://127.0.0.1:3001/api', version: '10' });
  expect(restOptionsOf('https://discord.com/api/v10/')).toEqual({ api: 'https://discord.com/api', version: '10' });
});
