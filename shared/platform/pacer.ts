import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Spaces calls of this process to at most `rate()` a second (read at each
 * call, as handlers read their configuration): each caller takes the next
 * free slot and waits for it. A burst of work that would otherwise meet the
 * platform's global rate limit (50 requests a second across the bot) as a
 * storm of 429s meets it as an even pace instead. A rate of 0 or less, or
 * not a number, does not pace.
 */
export function pacer(rate: () => number): () => Promise<void> {
  let nextSlot = 0;
  return async () => {
    const perSecond = rate();
    if (!(perSecond > 0)) return;
    const now = Date.now();
    const slot = Math.max(now, nextSlot);
    nextSlot = slot + 1000 / perSecond;
    if (slot > now) await sleep(slot - now);
  };
}
