/**
 * One TransactWriteItems, as the modules keeping a count beside a list of
 * items use it (giveaway entrants, poll voters): every action or none.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { databaseFailed } from '../errors.js';
import { db } from './client.js';

/** One action of a transaction: as an entity's `tx` makes it (`TagEntity.tx.put(...)`). */
export type TransactAction = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** Tries of a transaction that DynamoDB cancels for another one in progress on its items (a rush on one giveaway or poll). */
const TRANSACT_ATTEMPTS = 8;

/**
 * Which action of a transaction found its condition false, or null when the
 * write went through. A transaction cancelled only because another was in
 * progress on the same item (`TransactionConflict`, which DynamoDB answers
 * under a rush on one item and the SDK does not retry) is sent again after
 * a short random pause; still refused after TRANSACT_ATTEMPTS, a 503 saying
 * `busy`.
 */
export async function transact(actions: readonly TransactAction[], busy: string): Promise<number | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db().send(new TransactWriteCommand({ TransactItems: [...actions] }));
      return null;
    } catch (error) {
      const { name, CancellationReasons: reasons } = error as { name?: string; CancellationReasons?: { Code?: string }[] };
      if (name !== 'TransactionCanceledException' || !reasons) throw error;
      const at = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (at >= 0) return at;
      if (!reasons.some((r) => r.Code === 'TransactionConflict')) throw error;
      if (attempt === TRANSACT_ATTEMPTS) throw databaseFailed(busy);
      await delay(Math.random() * 10 * 2 ** attempt);
    }
  }
}
