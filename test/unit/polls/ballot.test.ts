import { describe, expect, it } from 'vitest';
import { findAnswer, nextVotes } from '#functions/polls/ballot.js';
import type { AnswerOption } from '#functions/polls/model.js';

const answer = (answer_id: number, extra: Partial<AnswerOption> = {}): AnswerOption => ({
  answer_id,
  answer_text: `answer ${answer_id}`,
  label: null,
  description: null,
  emoji_name: null,
  emoji_id: null,
  ...extra,
});

describe('nextVotes', () => {
  const single = { is_multi_select: false, max_votes_per_answer: 1 };
  const multi = { is_multi_select: true, max_votes_per_answer: 2 };

  it('moves a single-select vote to the new answer', () => {
    expect(nextVotes(single, {}, 'add', answer(1))).toEqual({ '1': 1 });
    expect(nextVotes(single, { '1': 1 }, 'add', answer(2))).toEqual({ '2': 1 });
  });

  it('keeps several answers on a multi-select poll, capped per answer', () => {
    expect(nextVotes(multi, { '1': 1 }, 'add', answer(2))).toEqual({ '1': 1, '2': 1 });
    expect(nextVotes(multi, { '1': 1 }, 'add', answer(1))).toEqual({ '1': 2 });
    expect(nextVotes(multi, { '1': 2 }, 'add', answer(1))).toMatchObject({ problem: expect.stringContaining('allows 2 per answer') });
  });

  it('refuses a second vote on the same answer at the cap of one', () => {
    expect(nextVotes(single, { '1': 1 }, 'add', answer(1))).toMatchObject({ problem: expect.stringContaining('already gave answer 1') });
  });

  it('removes one vote, and refuses to remove a vote that is not there', () => {
    expect(nextVotes(multi, { '1': 2, '2': 1 }, 'remove', answer(1))).toEqual({ '1': 1, '2': 1 });
    expect(nextVotes(multi, { '2': 1 }, 'remove', answer(2))).toEqual({});
    expect(nextVotes(multi, {}, 'remove', answer(2))).toMatchObject({ problem: expect.stringContaining('no vote on answer 2') });
  });
});

describe('findAnswer', () => {
  const poll = {
    answers: [answer(1, { emoji_name: '👍' }), answer(2, { emoji_name: 'party', emoji_id: '123456789012345678' }), answer(3, { emoji_name: '❤️' })],
  };

  it('finds by ID, by custom emoji ID, and by unicode emoji with or without its variation selector', () => {
    expect(findAnswer(poll, { answerId: 2, emojiName: null, emojiId: null })?.answer_id).toBe(2);
    expect(findAnswer(poll, { answerId: null, emojiName: 'party', emojiId: '123456789012345678' })?.answer_id).toBe(2);
    expect(findAnswer(poll, { answerId: null, emojiName: '👍', emojiId: null })?.answer_id).toBe(1);
    expect(findAnswer(poll, { answerId: null, emojiName: '❤', emojiId: null })?.answer_id).toBe(3);
    expect(findAnswer(poll, { answerId: 9, emojiName: null, emojiId: null })).toBeNull();
    expect(findAnswer(poll, { answerId: null, emojiName: '🎉', emojiId: null })).toBeNull();
  });
});
