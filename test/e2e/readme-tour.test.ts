/**
 * The README's shell examples, as a reader pastes them: every `sh` block, in
 * order, run by bash with curl against local mode on loopback. Only the
 * three lines naming where `npm start` listens and its token are pointed at
 * this test's service, which runs the reference bot as `npm start` does.
 * Every answer the blocks print must be a success, the sandbox must then
 * show what the README says a member sees, and a member's click or reaction
 * must do what it says.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_TOKEN } from '#test/helpers/local.js';
import type { Message } from '#test/helpers/sandbox.js';
import { eventually, type Loop, startLoop } from './loop.js';

const run = promisify(execFile);
const readme = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');

/** The README's `sh` blocks (indented ones in lists too), their indentation taken off. */
const blocks = [...readme.matchAll(/^( *)```sh\n([\s\S]*?)^ *```$/gm)].map(([, indent, body]) =>
  body!
    .split('\n')
    .map((line) => line.slice(indent!.length))
    .join('\n'),
);

/** The lines of the tour that say where `npm start` is; the test points them at its own service. */
const WHERE = {
  token: 'TOKEN=$(cat .data/service-token)',
  api: 'API=http://127.0.0.1:3000',
  sandbox: 'SANDBOX=http://127.0.0.1:3001',
};
const G = '1234567890123456789';
const C = '1234567890123456790';
const R = '1234567890123456791';

let loop: Loop;
let output: string;

/** Each answer the blocks print: curl is given `-w '\n'` so that every answer is a line. */
const answers = () =>
  output
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);

const messages = async (): Promise<Message[]> => {
  const state = await loop.sandbox.state();
  return (state.channels.find((c) => c.id === C)?.messages ?? []) as Message[];
};
const buttons = (message: Message) => (message.components ?? []).flatMap((row) => row.components.map((c) => c.label));

beforeAll(async () => {
  loop = await startLoop();
  const script = blocks
    .join('\n')
    .replace(WHERE.token, `TOKEN=${SERVICE_TOKEN}`)
    .replace(WHERE.api, `API=${loop.service.url}`)
    .replace(WHERE.sandbox, `SANDBOX=${loop.sandbox.origin}`);
  // Every curl prints its answer on a line of its own; a captured answer ($(curl ...)) loses that trailing line end.
  const prelude = 'curl() { command curl -w \'\\n\' "$@"; }\n';
  ({ stdout: output } = await run('bash', ['-e', '-o', 'pipefail', '-c', prelude + script], { timeout: 60_000 }));
}, 90_000);
afterAll(() => loop?.stop());

describe("the README's shell examples", () => {
  it('are the tour, the API key and the first poll, giveaway and panel, each pointed at npm start', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    for (const line of Object.values(WHERE)) expect(blocks[0]).toContain(line);
    const all = blocks.join('\n');
    for (const path of ['/modules/tags/entries', '/modules/polls/entries', '/modules/giveaways/entries', '/modules/reactionroles/panels']) {
      expect(all).toContain(path);
    }
  });

  it('succeed as pasted: every answer they print is a success', () => {
    const printed = answers();
    expect(printed.length).toBeGreaterThanOrEqual(12);
    for (const answer of printed.filter((a) => 'success' in a)) expect(answer, JSON.stringify(answer)).toMatchObject({ success: true });
    // The sandbox's control routes answer their own JSON, never an error.
    for (const answer of printed.filter((a) => !('success' in a))) expect(answer).not.toHaveProperty('message');
  });

  it('leave what the README says a member sees on the sandbox page', async () => {
    const shown = await messages();
    const tag = shown.find((m) => m.content?.startsWith('Welcome to Demo guild'));
    expect(tag?.content).toBe('Welcome to Demo guild, <@42>!');

    const poll = shown.find((m) => m.embeds?.[0]?.title === 'Where do we meet?');
    expect(poll && buttons(poll)).toEqual(['Park', 'Cafe']);
    expect(poll?.embeds?.[0]?.description).toContain('**Park**\n░░░░░░░░░░ 0 votes · 0%');
    expect(poll?.embeds?.[0]?.footer?.text).toContain('one answer per member · up to 100 votes per answer');

    const giveaway = shown.find((m) => m.embeds?.[0]?.title === '🎉 A sticker pack');
    expect(giveaway && buttons(giveaway)).toEqual(['Enter', 'Leave']);
    expect(giveaway?.embeds?.[0]?.description).toMatch(
      /\*\*Winners:\*\* 1\n\*\*Hosted by:\*\* <@42>\n\*\*Ends:\*\* .*\n\*\*Entrants:\*\* 0\n\n-# Seed hash [0-9a-f]{64}/,
    );

    const panel = shown.find((m) => m.content === 'React to pick your roles');
    expect(panel).toBeDefined();
    // The bot's own reaction, the one a member adds to get the role.
    expect(panel?.reactions?.map((r) => [r.emoji.name, r.me])).toEqual([['🎮', true]]);
  });

  it('answer a member as the README says: a vote counted, an entry counted, the role given', async () => {
    const shown = await messages();
    const poll = shown.find((m) => m.embeds?.[0]?.title === 'Where do we meet?')!;
    const giveaway = shown.find((m) => m.embeds?.[0]?.title === '🎉 A sticker pack')!;
    const panel = shown.find((m) => m.content === 'React to pick your roles')!;
    const member = '7';
    const click = (message: Message, label: string) => {
      const custom_id = (message.components ?? []).flatMap((row) => row.components).find((c) => c.label === label)?.custom_id;
      return loop.act('POST', `/_sandbox/channels/${C}/messages/${message.id}/click`, { user_id: member, custom_id });
    };
    await click(poll, 'Park');
    await click(giveaway, 'Enter');
    await loop.act('PUT', `/_sandbox/channels/${C}/messages/${panel.id}/reactions/${encodeURIComponent('🎮')}/${member}`);

    const now = async (id: string) => JSON.stringify((await messages()).find((m) => m.id === id)?.embeds ?? []);
    await eventually(async () => (await now(poll.id)).includes('**Park**\\n▓▓▓▓▓▓▓▓▓▓ 1 vote · 100%'), 15_000, `the vote\n${loop.botLines.join('\n')}`);
    await eventually(async () => (await now(giveaway.id)).includes('**Entrants:** 1'), 15_000, `the entry\n${loop.botLines.join('\n')}`);
    await eventually(async () => (await loop.sandbox.roles(G, member)).includes(R), 15_000, `the role\n${loop.botLines.join('\n')}`);
  }, 60_000);
});
