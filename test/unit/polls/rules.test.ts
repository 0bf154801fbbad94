import { describe, expect, it } from 'vitest';
import { answersProblem, durationProblem, emojiProblem, nativeHours, parseDuration } from '#functions/polls/rules.js';

const text = (answer_text: string, extra = {}) => ({ answer_text, label: null, description: null, emoji_name: null, emoji_id: null, ...extra });

describe('durations', () => {
  it('reads whole numbers with one unit letter and nothing else', () => {
    expect(parseDuration('45s')).toBe(45_000);
    expect(parseDuration('30m')).toBe(1_800_000);
    expect(parseDuration('2h')).toBe(7_200_000);
    expect(parseDuration('7d')).toBe(604_800_000);
    for (const bad of ['0s', '05m', '1.5h', '1 d', '1w', 'd', '', '-1s', '1S']) expect(parseDuration(bad)).toBeNull();
  });

  it('holds native polls to 1 hour .. 32 days and rounds them up to whole hours for the platform', () => {
    expect(durationProblem('59m', 1)).toMatch(/1 hour to 32 days/);
    expect(durationProblem('33d', 1)).toMatch(/1 hour to 32 days/);
    expect(durationProblem('1h', 1)).toBeNull();
    expect(durationProblem('32d', 1)).toBeNull();
    expect(durationProblem('3s', 2)).toBeNull();
    expect(nativeHours(90 * 60_000)).toBe(2);
    expect(nativeHours(32 * 24 * 3_600_000)).toBe(768);
  });
});

describe('answers', () => {
  it('applies the native limits: 1..10 answers of at most 55 characters', () => {
    expect(answersProblem(1, null, [])).toMatch(/1 to 10 answers/);
    expect(
      answersProblem(
        1,
        null,
        Array.from({ length: 11 }, (_, i) => text(`a${i}`)),
      ),
    ).toMatch(/1 to 10 answers/);
    expect(answersProblem(1, null, [text('x'.repeat(56))])).toMatch(/answer_text' must be 1 to 55/);
    expect(answersProblem(1, null, [text('x'.repeat(55))])).toBeNull();
  });

  it('applies the service limits: 25 answers, 20 with emoji, each emoji once, labels that fit', () => {
    expect(
      answersProblem(
        2,
        2,
        Array.from({ length: 26 }, (_, i) => text(`a${i}`)),
      ),
    ).toMatch(/1 to 25 answers/);
    expect(
      answersProblem(
        2,
        1,
        Array.from({ length: 21 }, (_, i) => text(`a${i}`, { emoji_name: '👍' })),
      ),
    ).toMatch(/1 to 20 answers/);
    expect(answersProblem(2, 1, [text('a')])).toMatch(/emoji_name' is required/);
    expect(answersProblem(2, 1, [text('a', { emoji_name: '👍' }), text('b', { emoji_name: '👍' })])).toMatch(/repeats the emoji/);
    expect(answersProblem(2, 2, [text('x'.repeat(81))])).toMatch(/label' must be at most 80/);
    expect(answersProblem(2, 2, [text('x'.repeat(81), { label: 'short' })])).toBeNull();
    expect(answersProblem(2, 3, [text('a', { description: 'd'.repeat(101) })])).toMatch(/description' must be at most 100/);
    expect(answersProblem(2, 2, [text('a', { votes: ['1'] })])).toMatch(/votes' must be an empty list/);
  });

  it('tells emoji from text', () => {
    expect(emojiProblem('a', '👍', null)).toBeNull();
    expect(emojiProblem('a', '🏳️‍🌈', null)).toBeNull();
    expect(emojiProblem('a', 'thumbsup', null)).toMatch(/one unicode emoji/);
    expect(emojiProblem('a', 'party_parrot', '123')).toBeNull();
    expect(emojiProblem('a', null, '123')).toMatch(/custom emoji's name/);
  });
});
