/**
 * Polls through the whole loop: a member votes on the sandbox (a click on an
 * answer's button, a reaction on an emoji poll); the reference bot passes the
 * vote to the service; the poll message on the sandbox shows the count.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { snowflake } from '#test/helpers/local.js';
import { answer, createPoll, pollGuild } from '#test/integration/polls/helpers.js';
import { eventually, type Loop, startLoop } from './loop.js';

let loop: Loop;
beforeAll(async () => {
  loop = await startLoop();
});
afterAll(() => loop?.stop());

/** The poll message's embed text, as the member sees it. */
const shown = async (channel: string, message: string) => {
  const m = await loop.sandbox.message(channel, message);
  return `${m?.embeds?.[0]?.description ?? ''}\n${m?.embeds?.[0]?.footer?.text ?? ''}`;
};

it("a click on an answer's button is counted on the poll message, and the member is told", async () => {
  const where = await pollGuild(loop.service);
  const poll = await createPoll(loop.service, where);
  const member = snowflake();
  const park = (await loop.sandbox.message(where.channel, poll.message_id!))!.components![0]!.components[0]!;
  expect(park.label).toBe('Park');

  const { interaction_id } = await loop.act('POST', `/_sandbox/channels/${where.channel}/messages/${poll.message_id}/click`, {
    user_id: member,
    custom_id: park.custom_id,
  });
  const text = await eventually(
    async () => {
      const t = await shown(where.channel, poll.message_id!);
      return t.includes('1 vote ·') && t;
    },
    15_000,
    `the vote on the message\n${loop.botLines.join('\n')}`,
  );
  expect(text).toMatch(/\*\*Park\*\*\n▓{10} 1 vote · 100%/);
  const told = await eventually(
    async () => {
      const texts = await loop.toldMember(interaction_id);
      return texts.length > 0 && texts;
    },
    15_000,
    'the answer to the member',
  );
  expect(told).toEqual(['Your vote for **Park** was counted.']);
});

it('a reaction on an emoji poll is counted as a vote for its answer', async () => {
  const where = await pollGuild(loop.service);
  const poll = await createPoll(loop.service, where, {
    poll_answer_type: 1,
    answers: [answer('Yes', { emoji_name: '👍' }), answer('No', { emoji_name: '👎' })],
  });
  await loop.sandbox.react(where.channel, poll.message_id!, '👎', snowflake());
  const text = await eventually(
    async () => {
      const t = await shown(where.channel, poll.message_id!);
      return t.includes('1 vote ·') && t;
    },
    15_000,
    `the vote on the message\n${loop.botLines.join('\n')}`,
  );
  expect(text).toMatch(/👎 \*\*No\*\*\n▓{10} 1 vote · 100%/);
});
