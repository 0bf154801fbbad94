/**
 * An enter's transaction as DynamoDB answers it under a rush: cancelled for
 * another transaction in progress on the giveaway, it is sent again; the
 * member's own state (already entered, giveaway ended) decides at once; a
 * conflict that does not clear is a 503, never a 500.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { addEntrant } from '#functions/giveaways/entrants.js';
import { db } from '#shared/db/client.js';

const cancelled = (...codes: string[]) =>
  new TransactionCanceledException({ message: 'Transaction cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });

afterEach(() => vi.restoreAllMocks());

describe('an enter under a rush', () => {
  it('sends the transaction again while another is in progress on the giveaway, then enters', async () => {
    const send = vi
      .spyOn(db(), 'send')
      .mockRejectedValueOnce(cancelled('None', 'TransactionConflict'))
      .mockRejectedValueOnce(cancelled('TransactionConflict', 'None'))
      .mockResolvedValueOnce({} as never);
    expect(await addEntrant('1', 'e', '5')).toBe('done');
    expect(send).toHaveBeenCalledTimes(3);
  });

  it("answers the member's own refusal at once: already entered", async () => {
    const send = vi.spyOn(db(), 'send').mockRejectedValueOnce(cancelled('ConditionalCheckFailed', 'None'));
    expect(await addEntrant('1', 'e', '5')).toBe('already');
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('answers 503 when the conflict does not clear', async () => {
    vi.spyOn(db(), 'send').mockRejectedValue(cancelled('None', 'TransactionConflict'));
    await expect(addEntrant('1', 'e', '5')).rejects.toMatchObject({ errorName: 'DatabaseError', status: 503 });
  });
});
