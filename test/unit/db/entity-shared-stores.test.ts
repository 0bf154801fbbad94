import { DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, resetDb } from '#shared/db/client.js';
import { entity, partition } from '#shared/db/entity.js';
import { tableName } from '#shared/db/table.js';
import { ensureTable, startEmbeddedDynamo } from '#infra/local/table.js';

/**
 * What the shared stores need of an entity beyond the module stores: a put
 * that answers the item refusing it (idempotency keys), a range up to a sort
 * key (the scheduler's due index), an attribute set from another (a claim's
 * `gen`) and a query of some attributes only (a removal's pages of keys).
 */
let close: () => Promise<void>;
beforeAll(async () => {
  const started = await startEmbeddedDynamo(null);
  close = started.close;
  const table = `entity-shared-test-${process.pid}`;
  await ensureTable(started.endpoint, table);
  Object.assign(process.env, { TABLE_NAME: table, DYNAMODB_ENDPOINT: started.endpoint, AWS_REGION: 'local' });
  resetDb();
});
afterAll(async () => {
  resetDb();
  await close();
});

const shelf = partition<[id: string]>('SHELF#');
const Slot = entity({
  name: 'slot',
  prefix: 'SLOT#',
  pk: (f: { shelf: string }) => shelf(f.shelf),
  sk: (f: { shelf: string; at: string }) => [f.at],
  parse: (item) => ({ at: String(item.at), owner: String(item.owner), gen: Number(item.gen), seen: item.seen === undefined ? null : Number(item.seen) }),
  indexes: { gsi1: { pk: (f: { lane: string }) => `LANE#${f.lane}`, prefix: '' } },
});
const raw = async (key: { pk: string; sk: string }) => (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

describe('a put answering the item that refused it', () => {
  it('answers written, else the holder as read again (dynalite returns none with the refusal)', async () => {
    const fields = { shelf: 'h', at: '1' };
    expect(await Slot.put(fields, { at: '1', owner: 'a', gen: 1 }, { ifAbsent: true, holder: true })).toEqual({ written: true });
    expect(await Slot.put(fields, { at: '1', owner: 'b', gen: 1 }, { condition: { owner: 'b' }, holder: true })).toEqual({
      written: false,
      holder: { at: '1', owner: 'a', gen: 1, seen: null },
    });
    expect((await raw(Slot.key(fields)))?.owner).toBe('a');
  });

  it('takes the holder from the refusal where the table returns it, without reading again', async () => {
    const mock = mockClient(DynamoDBDocumentClient);
    try {
      mock.on(PutCommand).rejects(
        Object.assign(new Error('The conditional request failed'), {
          name: 'ConditionalCheckFailedException',
          Item: marshall({ pk: 'SHELF#m', sk: 'SLOT#1', at: '1', owner: 'c', gen: 4 }),
        }),
      );
      const answer = await Slot.put({ shelf: 'm', at: '1' }, { at: '1', owner: 'd', gen: 1 }, { ifAbsent: true, holder: true });
      expect(answer).toEqual({ written: false, holder: { at: '1', owner: 'c', gen: 4, seen: null } });
      expect(mock.commandCalls(PutCommand)[0]!.args[0].input.ReturnValuesOnConditionCheckFailure).toBe('ALL_OLD');
      expect(mock.commandCalls(GetCommand)).toHaveLength(0);
    } finally {
      mock.restore();
    }
  });
});

describe('a range up to a sort key', () => {
  beforeAll(async () => {
    for (const at of ['001', '002', '003', '004']) await Slot.put({ shelf: 'r', at }, { at, owner: 'x', gen: 1, gsi1pk: 'LANE#r', gsi1sk: at });
  });

  it('reads the items up to it, on the table (with a start) and on an index (sort keys with no prefix)', async () => {
    expect((await Slot.query({ shelf: 'r' }, { to: Slot.key({ shelf: 'r', at: '002' }).sk })).map((s) => s.at)).toEqual(['001', '002']);
    expect((await Slot.query({ shelf: 'r' }, { from: 'SLOT#002', to: 'SLOT#003' })).map((s) => s.at)).toEqual(['002', '003']);
    expect((await Slot.index('gsi1').query({ lane: 'r' }, { to: '003', limit: 2 })).map((s) => s.at)).toEqual(['001', '002']);
    expect((await Slot.index('gsi1').query({ lane: 'r' }, { to: '003' })).map((s) => s.at)).toEqual(['001', '002', '003']);
  });

  it('reads only the attributes asked for, unparsed', async () => {
    expect(await Slot.query({ shelf: 'r' }, { projection: ['sk', 'owner'], limit: 2 })).toEqual([
      { sk: 'SLOT#001', owner: 'x' },
      { sk: 'SLOT#002', owner: 'x' },
    ]);
  });
});

describe('an attribute set from another', () => {
  it('copies the value the item has in the same write', async () => {
    const fields = { shelf: 'c', at: '1' };
    await Slot.put(fields, { at: '1', owner: 'a', gen: 7 });
    expect(await Slot.update(fields, { copy: { seen: 'gen' }, set: { owner: 'b' } })).toEqual({ at: '1', owner: 'b', gen: 7, seen: 7 });
  });
});
