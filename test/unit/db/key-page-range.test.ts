/**
 * keyPage when the range moved since its cursor was issued (a window that
 * starts later, as the statistic fetches' `days`): DynamoDB refuses a start
 * key outside the key condition, so none is sent.
 */
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { entity } from '#shared/db/entity.js';
import { readKeyPage } from '#shared/db/page.js';
import { withCursorSecret } from '#test/helpers/cursor-secret.js';

describe('keyPage from a cursor outside its range', () => {
  const dynamo = mockClient(DynamoDBDocumentClient);
  const Row = entity({
    name: 'unit_timed',
    prefix: '',
    pk: (f: { group: string }) => `T#${f.group}`,
    sk: (f: { group: string; kind: string; at: string }) => [f.kind, f.at],
    parse: (item) => ({ at: String(item.at) }),
  });
  const scope = { guildId: '1', family: 'unit/timed', filter: {} };
  withCursorSecret();
  beforeEach(() => {
    dynamo.reset();
    process.env.TABLE_NAME = 'guild-modules';
  });

  const cursorAt = async (sk: string, reverse: boolean) => {
    dynamo.on(QueryCommand).resolves({ Items: [{ at: 'x' }], LastEvaluatedKey: { pk: 'T#1', sk } });
    return (await readKeyPage(Row, { group: '1' }, { limit: 1 }, { scope, under: ['a'], from: 'a#2', reverse })).next_cursor!;
  };

  it('answers the empty last page, without a Query, once the range has passed the cursor', async () => {
    const newestFirst = await cursorAt('a#3', true);
    expect(await readKeyPage(Row, { group: '1' }, { limit: 1, cursor: newestFirst }, { scope, under: ['a'], from: 'a#5', reverse: true })).toEqual({
      items: [],
      next_cursor: null,
    });
    const oldestFirst = await cursorAt('b#0', false);
    expect(await readKeyPage(Row, { group: '1' }, { limit: 1, cursor: oldestFirst }, { scope, under: ['a'], from: 'a#0' })).toEqual({
      items: [],
      next_cursor: null,
    });
    // Only the two Queries that issued the cursors.
    expect(dynamo.commandCalls(QueryCommand)).toHaveLength(2);
  });

  it('reads from the range start when the cursor lies before it, and sends a cursor inside the range as it is', async () => {
    const oldestFirst = await cursorAt('a#3', false);
    dynamo.on(QueryCommand).resolves({ Items: [{ at: 'y' }] });
    expect(await readKeyPage(Row, { group: '1' }, { limit: 1, cursor: oldestFirst }, { scope, under: ['a'], from: 'a#5' })).toEqual({
      items: [{ at: 'y' }],
      next_cursor: null,
    });
    expect(await readKeyPage(Row, { group: '1' }, { limit: 1, cursor: oldestFirst }, { scope, under: ['a'], from: 'a#1' })).toEqual({
      items: [{ at: 'y' }],
      next_cursor: null,
    });
    const starts = dynamo.commandCalls(QueryCommand).map((c) => c.args[0].input.ExclusiveStartKey);
    expect(starts).toEqual([undefined, undefined, { pk: 'T#1', sk: 'a#3' }]);
  });
});
