/** verify-draw's check of a published giveaway: every round repeated from the record alone, and each kind of tampering caught. */
import { describe, expect, it } from 'vitest';
import { drawRounds, seedHash } from '#functions/giveaways/draw.js';
import { type PublishedGiveaway, checkDraw, publishedGiveaway } from '#functions/giveaways/verify-draw.js';

const SEED = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';
/** The vectors of draw.test.ts: rounds 12345678901234567890,18446744073709551615 / 7,3 / 5,10. */
const ENTRANTS = ['5', '3', '10', '18446744073709551615', '7', '12345678901234567890'];

/** An ended giveaway as the API answers it, with `rounds` rounds drawn as the service draws them. */
function published(rounds: number): PublishedGiveaway {
  const drawn = drawRounds(SEED, 'gw-test-1', rounds, 2, ENTRANTS);
  return {
    entry_id: 'gw-test-1',
    status: 'ended',
    winner_count: 2,
    participants: ENTRANTS.join(','),
    winners: drawn.at(-1)!.join(','),
    seed_hash: seedHash(SEED),
    seed: SEED,
    rounds: drawn.map((winners, i) => ({ round: i + 1, winners, drawn_at: new Date(Date.UTC(2026, 10, 27, 12, i)).toISOString() })),
  };
}

const failing = (lines: string[]) => lines.filter((l) => l.startsWith('FAIL')).map((l) => l.replace(/:.*/s, ''));

describe('verify-draw', () => {
  it('passes every round of an honest record, one line each, after the seed', () => {
    const { code, lines } = checkDraw(published(3));
    expect(code).toBe(0);
    expect(lines.map((l) => l.replace(/ \(drawn.*|:.*/s, ''))).toEqual(['pass  seed', 'pass  round 1', 'pass  round 2', 'pass  round 3', 'pass  winners']);
    expect(lines.slice(1, 4).map((l) => l.split(': ')[1])).toEqual(['12345678901234567890,18446744073709551615', '7,3', '5,10']);
  });

  it('fails the round whose winner was changed, and only that one', () => {
    const g = published(3);
    const round2 = g.rounds[1]!;
    round2.winners[0] = ENTRANTS.find((id) => !round2.winners.includes(id))!;
    const { code, lines } = checkDraw(g);
    expect(code).toBe(1);
    expect(failing(lines)).toEqual(['FAIL  round 2 (drawn 2026-11-27T12']);
    expect(lines.find((l) => l.startsWith('FAIL'))).toContain('the draw gives');
  });

  it('fails winners drawn in another order, a renumbered round, a dropped round and a swapped pair of rounds', () => {
    const reordered = published(2);
    reordered.rounds[0]!.winners.reverse();
    expect(checkDraw(reordered).code).toBe(1);

    const renumbered = published(3);
    renumbered.rounds[2]!.round = 4;
    const verdict = checkDraw(renumbered);
    expect(verdict.code).toBe(1);
    expect(verdict.lines.find((l) => l.startsWith('FAIL'))).toContain('kept as round 4');

    const dropped = published(3);
    dropped.rounds.splice(1, 1);
    dropped.rounds[1]!.round = 2;
    expect(failing(checkDraw(dropped).lines)).toHaveLength(1);

    const swapped = published(3);
    [swapped.rounds[1], swapped.rounds[2]] = [swapped.rounds[2]!, swapped.rounds[1]!];
    expect(checkDraw(swapped).code).toBe(1);
  });

  it('fails a seed that is not the committed one, and a winners field that is not the latest round', () => {
    const otherSeed = { ...published(1), seed: 'f'.repeat(64) };
    expect(failing(checkDraw(otherSeed).lines)).toContain('FAIL  seed');
    const winners = { ...published(2), winners: published(1).winners };
    expect(failing(checkDraw(winners).lines)).toEqual(['FAIL  winners']);
  });

  it('has nothing to check while the giveaway runs, nor with entrants that are not member IDs', () => {
    const running = { ...published(1), status: 'running' as const, seed: null, rounds: [], winners: '' };
    expect(checkDraw(running)).toMatchObject({ code: 2, lines: [expect.stringContaining('published at the end')] });
    expect(checkDraw({ ...published(1), participants: '5,x3' })).toMatchObject({ code: 2, lines: [expect.stringContaining("'participants' holds 'x3'")] });
  });

  it('reads the answer with its envelope, without, or the giveaway alone, and names a field that is not a giveaway', () => {
    const g = published(2);
    expect(publishedGiveaway({ success: true, data: { entry: g } })).toEqual(g);
    expect(publishedGiveaway({ entry: g })).toEqual(g);
    expect(publishedGiveaway({ ...g, extra: 1 })).toEqual(g);
    expect(publishedGiveaway({ ...g, rounds: [{ round: 1, winners: 'a,b', drawn_at: 'x' }] })).toContain("field 'rounds.0.winners'");
    expect(publishedGiveaway([])).toContain('not a giveaway');
  });
});
