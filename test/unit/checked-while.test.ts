import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { checkedWhile } from '#shared/modules/state.js';

/**
 * A module check and a read that does not depend on it go out at once (one
 * round trip, not two), and the check still decides: a refusal is the
 * answer whatever the read did.
 */
describe('a check with a read beside it', () => {
  it('starts the read before the check has answered, and answers both', async () => {
    const events: string[] = [];
    const answer = await checkedWhile(
      async () => {
        await sleep(20);
        events.push('checked');
        return 'state';
      },
      async () => {
        events.push('read sent');
        return ['item'];
      },
    );
    expect(answer).toEqual(['state', ['item']]);
    expect(events).toEqual(['read sent', 'checked']);
  });

  it("answers the check's refusal even when the read fails too, and leaves no rejection unhandled", async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      const refused = checkedWhile(
        async () => {
          await sleep(10);
          throw new Error('module disabled');
        },
        async () => {
          throw new Error('table unreachable');
        },
      );
      await expect(refused).rejects.toThrow('module disabled');
      await sleep(20);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });

  it("answers the read's failure when the check passes", async () => {
    await expect(
      checkedWhile(
        async () => 'state',
        async () => Promise.reject(new Error('table unreachable')),
      ),
    ).rejects.toThrow('table unreachable');
  });
});
