/**
 * The table read raw, as tests that check what is stored (or that nothing
 * is left behind) read it: every item of a key condition, or their count,
 * following the table's pages. Product code reads through entities.
 */
import { type NativeAttributeValue, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db } from '#shared/db/client.js';
import { tableName } from '#shared/db/table.js';

type Item = Record<string, NativeAttributeValue>;
type QueryInput = Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit' | 'Select'>;

export async function queryAll(input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>): Promise<Item[]> {
  const items: Item[] = [];
  let start: Record<string, NativeAttributeValue> | undefined;
  do {
    const out = await db().send(new QueryCommand({ ...input, TableName: tableName(), ExclusiveStartKey: start }));
    items.push(...((out.Items as Item[]) ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

export async function countAll(input: QueryInput): Promise<number> {
  let count = 0;
  let start: Record<string, NativeAttributeValue> | undefined;
  do {
    const { ProjectionExpression: _p, ...rest } = input;
    const out = await db().send(new QueryCommand({ ...rest, TableName: tableName(), Select: 'COUNT', ExclusiveStartKey: start }));
    count += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return count;
}
