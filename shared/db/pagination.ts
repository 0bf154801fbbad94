import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db } from './client.js';
import { tableName } from './table.js';

/** A page of a list as behaviour §3.6 answers it. */
export interface Page<T> {
  items: T[];
  page: number;
  page_size: number;
  total: number;
}

type Item = Record<string, NativeAttributeValue>;

/**
 * Every item of a key condition, following LastEvaluatedKey. Lists in this
 * service are per guild and bounded by the module's limits, so reading the
 * whole partition range is what `total` needs anyway.
 */
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

/** Cuts one page out of a list that is already newest first. */
export function paginate<T>(all: T[], page: number, pageSize: number): Page<T> {
  const from = (page - 1) * pageSize;
  return { items: all.slice(from, from + pageSize), page, page_size: pageSize, total: all.length };
}
