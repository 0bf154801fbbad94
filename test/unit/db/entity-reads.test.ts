/**
 * The entity operations modules keeping their own counts and sets need:
 * a reading of part of a range (`limit`, `after`), a delete answering what
 * it held, a page whose total the module keeps and whose records may be
 * left out, and conditions and changes on set sizes, set members and map paths.
 */
import { DeleteCommand, DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { entity } from '#shared/db/entity.js';
import { Expressions } from '#shared/db/expression.js';
import { readPage } from '#shared/db/page.js';
import { withCursorSecret } from '#test/helpers/cursor-secret.js';

const dynamo = mockClient(DynamoDBDocumentClient);
withCursorSecret();
beforeEach(() => {
  dynamo.reset();
  process.env.TABLE_NAME = 'guild-modules';
});

const Member = entity({
  name: 'unit_member',
  prefix: 'M#',
  pk: (f: { list: string }) => `L#${f.list}`,
  sk: (f: { list: string; id: string }) => [f.id],
  parse: (item) => ({ id: String(item.id) }),
});
const item = (id: string) => ({ pk: 'L#a', sk: `M#${id}`, id });
const scope = { guildId: '1', family: 'unit/members', filter: {} };

describe('entity reads in part', () => {
  it('reads at most `limit` items, across the table pages, from after a sort key', async () => {
    dynamo
      .on(QueryCommand)
      .resolvesOnce({ Items: [item('2'), item('3')], LastEvaluatedKey: item('3') })
      .resolvesOnce({ Items: [item('4')], LastEvaluatedKey: item('4') });
    const read = await Member.query({ list: 'a' }, { after: 'M#1', limit: 3 });
    expect(read.map((m) => m.id)).toEqual(['2', '3', '4']);
    const sent = dynamo.commandCalls(QueryCommand).map((c) => c.args[0].input);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toMatchObject({ Limit: 3, ExclusiveStartKey: { pk: 'L#a', sk: 'M#1' } });
    expect(sent[1]).toMatchObject({ Limit: 1, ExclusiveStartKey: item('3') });
  });

  it('sends no Limit past a 32-bit count, and reads to the end without one', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [item('1')] });
    await Member.query({ list: 'a' }, { limit: Number.MAX_SAFE_INTEGER });
    await Member.query({ list: 'a' });
    for (const call of dynamo.commandCalls(QueryCommand)) expect(call.args[0].input.Limit).toBeUndefined();
  });

  it('deletes an item answering the record it held, or null when there was none', async () => {
    dynamo
      .on(DeleteCommand)
      .resolvesOnce({ Attributes: item('7') })
      .resolvesOnce({});
    expect(await Member.delete({ list: 'a', id: '7' }, { returnOld: true })).toEqual({ id: '7' });
    expect(await Member.delete({ list: 'a', id: '8' }, { returnOld: true })).toBeNull();
    expect(dynamo.commandCalls(DeleteCommand)[0]!.args[0].input).toMatchObject({ Key: { pk: 'L#a', sk: 'M#7' }, ReturnValues: 'ALL_OLD' });
  });
});

describe('entity pages with a kept total and records left out', () => {
  it('takes the total from the module, counting nothing, and passes over a record shown as null', async () => {
    dynamo.on(QueryCommand).resolves({ Items: [item('1'), item('2'), item('3')], LastEvaluatedKey: item('3') });
    const page = await readPage(
      Member,
      { list: 'a' },
      { page: 1, page_size: 3 },
      { scope, total: async () => 10, shown: async (m) => (m.id === '2' ? null : { shown: m.id }) },
    );
    expect(page.items).toEqual([{ shown: '1' }, { shown: '3' }]);
    expect(page.total).toBe(10);
    expect(page.next_cursor).toEqual(expect.any(String));
    expect(dynamo.commandCalls(QueryCommand).some((c) => c.args[0].input.Select === 'COUNT')).toBe(false);

    dynamo.reset();
    dynamo.on(QueryCommand).resolves({ Items: [item('4')] });
    const next = await readPage(Member, { list: 'a' }, { page: 1, page_size: 3, cursor: page.next_cursor! }, { scope, total: async () => 4 });
    expect(next.page).toBe(2);
    expect(dynamo.commandCalls(QueryCommand)[0]!.args[0].input.ExclusiveStartKey).toEqual({ pk: 'L#a', sk: 'M#3' });
    // The three read before count toward the total even though one was left out: nothing follows the fourth.
    expect(next.next_cursor).toBeNull();
  });
});

describe('conditions and changes', () => {
  it('tests a set size and a map path, and takes members out of a set', async () => {
    const x = new Expressions();
    expect(x.condition({ participants: { size: { eq: 2 } }, 'votes.3': { exists: true } })).toBe('size(#n0) = :v0 AND attribute_exists(#n1.#n2)');
    expect(x.update({ delete: { participants: new Set(['9']) }, add: { participant_count: -1 } })).toBe('ADD #n3 :v1 DELETE #n0 :v2');
    expect(x.attributes().ExpressionAttributeNames).toEqual({ '#n0': 'participants', '#n1': 'votes', '#n2': '3', '#n3': 'participant_count' });
  });

  it('sends an update that takes members out of a set', async () => {
    dynamo.on(UpdateCommand).resolves({});
    await Member.update({ list: 'a', id: '1' }, { delete: { ids: new Set(['1']) }, returnValues: 'NONE' });
    expect(dynamo.commandCalls(UpdateCommand)[0]!.args[0].input.UpdateExpression).toContain('DELETE #n1 :v1');
  });
});
