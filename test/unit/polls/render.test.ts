import { describe, expect, it } from 'vitest';
import { type Poll, type Voter, tallyOf } from '#functions/polls/model.js';
import { renderHash, renderNativePoll, renderPollMessage, renderProblem } from '#functions/polls/render.js';

const poll = (extra: Partial<Poll> = {}): Poll => ({
  id: 1,
  guild_id: '1',
  poll_id: 'p1',
  channel_id: '2',
  message_id: '3',
  poll_type: 2,
  poll_answer_type: 2,
  question: 'Lunch?',
  description: 'Pick one',
  is_multi_select: false,
  is_anonymous: false,
  max_votes_per_answer: 1,
  poll_owner_id: '4',
  sent_by_service: true,
  status: 'open',
  end_time: Date.UTC(2030, 0, 1),
  delete_at: null,
  edited_with_results: false,
  created_at: '2029-12-31T00:00:00.000Z',
  answers: [
    { answer_id: 1, answer_text: 'Pizza', label: null, description: null, emoji_name: '🍕', emoji_id: null },
    { answer_id: 2, answer_text: 'Salad', label: 'Greens', description: 'healthy', emoji_name: null, emoji_id: null },
  ],
  version: 1,
  ...extra,
});

const votes: Voter[] = [
  { member_id: '11', votes: { '1': 1 }, version: 1 },
  { member_id: '12', votes: { '1': 1 }, version: 1 },
  { member_id: '13', votes: { '2': 1 }, version: 1 },
];

describe('the service poll message', () => {
  it('shows question, description, answers with counts and the end time, and buttons to vote', () => {
    const message = renderPollMessage(poll(), tallyOf(poll(), votes));
    const embed = message.embeds[0]!;
    expect(embed.title).toBe('Lunch?');
    expect(embed.description).toContain('Pick one');
    expect(embed.description).toContain('🍕 **Pizza**\n▓▓▓▓▓▓▓░░░ 2 votes · 67%');
    expect(embed.description).toContain('**Salad**\n▓▓▓░░░░░░░ 1 vote · 33%');
    expect(embed.description).toContain(`Ends <t:${Date.UTC(2030, 0, 1) / 1000}:R>`);
    expect(embed.description).not.toContain('<@11>');
    expect(message.components[0]!.components.map((b) => ('label' in b ? b.label : null))).toEqual(['Pizza', 'Greens']);
    expect(message.allowed_mentions).toEqual({ parse: [] });
  });

  it('shows who voted for what once closed, with disabled components, but never voters of an anonymous poll', () => {
    const closed = renderPollMessage(poll({ status: 'closed' }), tallyOf(poll(), votes));
    expect(closed.embeds[0]!.description).toContain('↳ <@11>, <@12>');
    expect(closed.embeds[0]!.description).toContain('final results');
    expect(closed.components[0]!.components.every((c) => c.disabled)).toBe(true);
    const anonymous = renderPollMessage(poll({ status: 'closed', is_anonymous: true }), tallyOf(poll(), votes));
    expect(anonymous.embeds[0]!.description).not.toContain('<@');
    expect(anonymous.embeds[0]!.description).toContain('2 votes');
  });

  it('keeps a results message within the embed limits however many voted', () => {
    const many: Voter[] = Array.from({ length: 5000 }, (_, i) => ({
      member_id: String(100000000000000000n + BigInt(i)),
      votes: { [String((i % 2) + 1)]: 1 },
      version: 1,
    }));
    const embed = renderPollMessage(poll({ status: 'closed' }), tallyOf(poll(), many)).embeds[0]!;
    expect(embed.description!.length).toBeLessThanOrEqual(4096);
    expect(embed.description).toMatch(/and \d+ more/);
  });

  it('renders a dropdown with answer IDs as values, and nothing for emoji polls', () => {
    const dropdown = renderPollMessage(poll({ poll_answer_type: 3 }), tallyOf(poll(), []));
    const select = dropdown.components[0]!.components[0]!;
    expect(select).toMatchObject({
      type: 3,
      options: [
        { label: 'Pizza', value: '1', emoji: { name: '🍕' } },
        { label: 'Greens', value: '2', description: 'healthy' },
      ],
    });
    expect(renderPollMessage(poll({ poll_answer_type: 1 }), tallyOf(poll(), [])).components).toEqual([]);
  });

  it('gives equal renders equal hashes', () => {
    const a = renderPollMessage(poll(), tallyOf(poll(), votes));
    expect(renderHash(a)).toBe(renderHash(renderPollMessage(poll(), tallyOf(poll(), votes))));
    expect(renderHash(a)).not.toBe(renderHash(renderPollMessage(poll(), tallyOf(poll(), votes.slice(1)))));
  });

  it('refuses a poll too long to show', () => {
    expect(renderProblem(poll())).toBeNull();
    expect(renderProblem(poll({ question: 'q'.repeat(257) }))).toMatch(/at most 256/);
    const long = Array.from({ length: 25 }, (_, i) => ({
      answer_id: i + 1,
      answer_text: 'x'.repeat(100),
      label: 'l',
      description: null,
      emoji_name: null,
      emoji_id: null,
    }));
    expect(renderProblem(poll({ answers: long, description: 'd'.repeat(1000) }))).toMatch(/too long to show/);
  });
});

describe('the native poll body', () => {
  it('carries question, answers with emoji, duration in hours and multiselect', () => {
    expect(renderNativePoll(poll({ is_multi_select: true }), 2)).toEqual({
      poll: {
        question: { text: 'Lunch?' },
        answers: [{ poll_media: { text: 'Pizza', emoji: { name: '🍕' } } }, { poll_media: { text: 'Salad' } }],
        duration: 2,
        allow_multiselect: true,
        layout_type: 1,
      },
      allowed_mentions: { parse: [] },
    });
  });
});
