/**
 * The verifiable draw (behaviour §12), as one pure function: anyone holding
 * the published seed and the entrants can repeat it.
 *
 * Round r (1 at the end, 2, 3 ... for each reroll): the pool is the entrants
 * not drawn in an earlier round, sorted by numeric ID ascending. For
 * j = 0 .. n-1 with n = min(winner_count, pool size): h = HMAC-SHA256(key:
 * the seed's 64 hex characters, message: `<entry_id>:<r>:<j>`); x = the first
 * 8 bytes of h as an unsigned big-endian integer; the winner is
 * pool[x mod pool size], taken out of the pool before the next j.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';

/** Rerolls a giveaway allows (behaviour §13): with the end's round, at most MAX_REROLLS + 1 rounds. */
export const MAX_REROLLS = 10;

/** A new secret seed: 32 random bytes as 64 lowercase hex characters. */
export const mintSeed = () => randomBytes(32).toString('hex');

/** What is published while the giveaway runs: SHA-256 of the seed's 64 characters, lowercase hex. */
export const seedHash = (seed: string) => createHash('sha256').update(seed, 'utf8').digest('hex');

const byNumericId = (a: string, b: string) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0);

/** Pick j's place in the pool: the first 8 bytes of HMAC-SHA256(seed, `<entry_id>:<r>:<j>`) modulo the pool's size. */
const pick = (seed: string, entryId: string, round: number, j: number, poolSize: number) =>
  Number(createHmac('sha256', seed).update(`${entryId}:${round}:${j}`, 'utf8').digest().readBigUInt64BE(0) % BigInt(poolSize));

/** The winners of round `round`, in the order drawn. `alreadyDrawn` are the winners of earlier rounds. */
export function drawRound(
  seed: string,
  entryId: string,
  round: number,
  winnerCount: number,
  entrants: readonly string[],
  alreadyDrawn: readonly string[] = [],
): string[] {
  const drawn = new Set(alreadyDrawn);
  const pool = [...new Set(entrants)].filter((id) => !drawn.has(id)).sort(byNumericId);
  const winners: string[] = [];
  const n = Math.min(winnerCount, pool.length);
  for (let j = 0; j < n; j++) {
    const [winner] = pool.splice(pick(seed, entryId, round, j, pool.length), 1);
    winners.push(winner!);
  }
  return winners;
}

/** Every round in order, each drawing from what earlier rounds left: what a verifier repeats. */
export function drawRounds(seed: string, entryId: string, rounds: number, winnerCount: number, entrants: readonly string[]): string[][] {
  const all: string[][] = [];
  for (let r = 1; r <= rounds; r++) all.push(drawRound(seed, entryId, r, winnerCount, entrants, all.flat()));
  return all;
}

/**
 * The same draw as `drawRound`, told only the size of the sorted entrant
 * list: the places (0-based) its winners hold in that list, in the order
 * drawn. `taken` are the places of earlier rounds' winners. So the end can
 * draw first and then read the list piece by piece for the members at
 * those places, never holding the whole list.
 */
export function drawPlaces(seed: string, entryId: string, round: number, winnerCount: number, listSize: number, taken: readonly number[] = []): number[] {
  const out = [...taken].sort((a, b) => a - b);
  const places: number[] = [];
  const n = Math.min(winnerCount, listSize - out.length);
  for (let j = 0; j < n; j++) {
    // The k-th place still in the pool, counted over the places taken out before it.
    let place = pick(seed, entryId, round, j, listSize - out.length);
    for (const gone of out) {
      if (gone <= place) place++;
      else break;
    }
    places.push(place);
    const at = out.findIndex((gone) => gone > place);
    out.splice(at === -1 ? out.length : at, 0, place);
  }
  return places;
}

/**
 * The commitment to the entrant list the end drew from, published as
 * `participants_hash`: the list in numeric order, cut into chunks of
 * HASH_CHUNK IDs; h starts as 64 zeros, and each chunk makes h =
 * SHA-256(h + ":" + the chunk's IDs joined by commas), lowercase hex. A
 * chain of chunks, so the end can hash its pieces one after another.
 */
export const HASH_CHUNK = 1000;
export const HASH_START = '0'.repeat(64);

/** The hash after these IDs, from `h` (a whole number of chunks read before). */
export function chainHash(h: string, ids: readonly string[]): string {
  let hash = h;
  for (let i = 0; i < ids.length; i += HASH_CHUNK) {
    hash = createHash('sha256')
      .update(`${hash}:${ids.slice(i, i + HASH_CHUNK).join(',')}`, 'utf8')
      .digest('hex');
  }
  return hash;
}

/** The hash of a whole list, sorted here in numeric order. */
export const entrantsHash = (ids: readonly string[]) => chainHash(HASH_START, [...ids].sort(byNumericId));
