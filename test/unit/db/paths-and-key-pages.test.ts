/**
 * Expressions on members of a map (document paths, `size`) and lists read by
 * key a Query at a time (`keyPage`), as the welcoming registry and the
 * invite tracker's `/stats/uses` use them.
 */
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { entity } from '#shared/db/entity.js';
import { Expressions } from '#shared/db/expression.js';
import { readKeyPage } from '#shared/db/page.js';
import { withCursorSecret } from '#test/helpers/cursor-secret.js';

describe('document paths and sizes in expressions', () => {
  it('gives each part of a dotted name its own placeholder, shared with the map itself', () => {
    const x = new Expressions();
    const condition = x.condition({ 'timedroles.123': { exists: false }, $or: [{ timedroles: { exists: false } }, { timedroles: { size: { lt: 20 } } }] });
    expect(condition).toBe('attribute_not_exists(#n0.#n1) AND (attribute_not_exists(#n0) OR size(#n0) < :v0)');
    expect(x.attributes()).toEqual({ ExpressionAttributeNames: { '#n0': 'timedroles', '#n1': '123' }, ExpressionAttributeValues: { ':v0': 20 } });
  });

  it('sets and removes a member of a map', () => {
    const x = new Expressions();
    expect(x.update({ set: { 'responses_1.abc': 'when' }, remove: ['responses_2.def'] })).toBe('SET #n0.#n1 = :v0 REMOVE #n2.#n3');
    expect(x.attributes().ExpressionAttributeNames).toEqual({ '#n0': 'responses_1', '#n1': 'abc', '#n2': 'responses_2', '#n3': 'def' });
  });

  it('compares a size every way asked, and refuses an unknown comparison', () => {
    const x = new Expressions();
    expect(x.condition({ list: { size: { ge: 1, le: 5 } } })).toBe('size(#n0) >= :v0 AND size(#n0) <= :v1');
    expect(() => x.condition({ list: { size: { near: 3 } as never } })).toThrow(/near/);
  });
});

describe('keyPage: one Query from where the signed cursor says', () => {
  const dynamo = mockClient(DynamoDBDocumentClient);
  const Use = entity({
    name: 'unit_use',
    prefix: 'USE#',
    pk: (f: { guildId: string }) => `G#${f.guildId}`,
    sk: (f: { guildId: string; at: string }) => [f.at],
    parse: (item) => ({ at: String(item.at) }),
    indexes: { gsi1: { pk: (f: { guildId: string; by: string }) => `BY#${f.guildId}#${f.by}`, prefix: '' } },
  });
  const scope = { guildId: '1', family: 'unit/uses', filter: { by: '7' } };
  withCursorSecret();
  beforeEach(() => {
    dynamo.reset();
    process.env.TABLE_NAME = 'guild-modules';
  });

  it('reads at most limit items once, and its cursor starts the next Query after the last key', async () => {
    const last = { pk: 'G#1', sk: 'USE#b', gsi1pk: 'BY#1#7', gsi1sk: 'b' };
    dynamo
      .on(QueryCommand)
      .resolvesOnce({ Items: [{ at: 'a' }, { at: 'b' }], LastEvaluatedKey: last })
      .resolves({ Items: [{ at: 'c' }] });
    const first = await readKeyPage(Use.index('gsi1'), { guildId: '1', by: '7' }, { limit: 2 }, { scope, reverse: true, filter: { counted: true } });
    expect(first.items).toEqual([{ at: 'a' }, { at: 'b' }]);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await readKeyPage(
      Use.index('gsi1'),
      { guildId: '1', by: '7' },
      { limit: 2, cursor: first.next_cursor! },
      { scope, reverse: true, filter: { counted: true } },
    );
    expect(second).toEqual({ items: [{ at: 'c' }], next_cursor: null });
    const inputs = dynamo.commandCalls(QueryCommand).map((c) => c.args[0].input);
    expect(inputs).toHaveLength(2);
    expect(inputs[0]).toMatchObject({ IndexName: 'gsi1', Limit: 2, ScanIndexForward: false, ConsistentRead: false, FilterExpression: '#n1 = :v1' });
    expect(inputs[0]!.ExclusiveStartKey).toBeUndefined();
    expect(inputs[1]!.ExclusiveStartKey).toEqual(last);
  });

  it('refuses a cursor issued for another list with a 422 naming cursor', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [{ at: 'a' }], LastEvaluatedKey: { pk: 'G#1', sk: 'USE#a' } });
    const { next_cursor } = await readKeyPage(Use, { guildId: '1' }, { limit: 1 }, { scope });
    await expect(readKeyPage(Use, { guildId: '1' }, { limit: 1, cursor: next_cursor! }, { scope: { ...scope, filter: { by: '8' } } })).rejects.toMatchObject({
      status: 422,
      message: expect.stringContaining("'cursor'"),
    });
    expect(dynamo.commandCalls(QueryCommand)).toHaveLength(1);
  });
});
