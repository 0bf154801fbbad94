import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db, resetDb } from '#shared/db/client.js';
import { entity, partition } from '#shared/db/entity.js';
import { tableName } from '#shared/db/table.js';
import { transact } from '#shared/db/transact.js';
import { ensureTable, startEmbeddedDynamo } from '#infra/local/table.js';

/**
 * The operations an entity owns, against a real (embedded) table: each
 * answers its parsed record, or null/false when its condition did not hold,
 * and writes the same bytes a hand-written command would.
 */
let close: () => Promise<void>;
beforeAll(async () => {
  const started = await startEmbeddedDynamo(null);
  close = started.close;
  const table = `entity-ops-test-${process.pid}`;
  await ensureTable(started.endpoint, table);
  Object.assign(process.env, { TABLE_NAME: table, DYNAMODB_ENDPOINT: started.endpoint, AWS_REGION: 'local', CURSOR_SECRET: 'entity-ops-test-secret' });
  resetDb();
});
afterAll(async () => {
  resetDb();
  await close();
});

const box = partition<[id: string]>('BOX#');
/** Notes in a box, with a reserved word (`status`) among their attributes. */
const Note = entity({
  name: 'note',
  prefix: 'NOTE#',
  pk: (f: { box: string }) => box(f.box),
  sk: (f: { box: string; author: string; id: string }) => [f.author, f.id],
  parse: (item) => ({ id: String(item.id), text: String(item.text), status: String(item.status), version: Number(item.version) }),
  indexes: { gsi1: { pk: (f: { status: string }) => `STATUS#${f.status}`, prefix: 'AT#' } },
});
/** Another entity in the same partitions: a query of notes never answers it. */
const Counter = entity({ name: 'counter', prefix: 'COUNT', pk: (f: { box: string }) => box(f.box), parse: (item) => Number(item.n) });

const raw = async (key: { pk: string; sk: string }) => (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
const note = (id: string, extra: object = {}) => ({ id, text: `note ${id}`, status: 'open', version: 1, ...extra });

describe('get and put', () => {
  it('writes the item whole with its key and entity name, and reads it back parsed; null when absent', async () => {
    expect(await Note.put({ box: 'a', author: 'u', id: '1' }, note('1'))).toBe(true);
    expect(await raw({ pk: 'BOX#a', sk: 'NOTE#u#1' })).toEqual({ pk: 'BOX#a', sk: 'NOTE#u#1', entity: 'note', ...note('1') });
    expect(await Note.get({ box: 'a', author: 'u', id: '1' })).toEqual(note('1'));
    expect(await Note.get({ box: 'a', author: 'u', id: 'none' })).toBeNull();
    expect(await Note.get({ box: 'a', author: 'u', id: '1' }, { projection: ['status', 'text'] })).toEqual({ status: 'open', text: 'note 1' });
  });

  it('puts if absent: false, and the item unchanged, when one is there', async () => {
    const fields = { box: 'b', author: 'u', id: '1' };
    expect(await Note.put(fields, note('1'), { ifAbsent: true })).toBe(true);
    expect(await Note.put(fields, note('1', { text: 'second' }), { ifAbsent: true })).toBe(false);
    expect((await Note.get(fields))?.text).toBe('note 1');
  });

  it('puts under a condition: false when it does not hold (a reserved word as the attribute)', async () => {
    const fields = { box: 'c', author: 'u', id: '1' };
    await Note.put(fields, note('1'));
    expect(await Note.put(fields, note('1', { status: 'closed' }), { condition: { status: 'closed' } })).toBe(false);
    expect(await Note.put(fields, note('1', { status: 'closed', version: 2 }), { condition: { status: 'open', version: { lt: 2 } } })).toBe(true);
    expect(await Note.get(fields)).toMatchObject({ status: 'closed', version: 2 });
  });
});

describe('update and delete', () => {
  it('updates under a condition and answers the record after; null, and nothing changed, when the condition fails', async () => {
    const fields = { box: 'd', author: 'u', id: '1' };
    await Note.put(fields, note('1'));
    expect(await Note.update(fields, { set: { text: 'edited' }, add: { version: 1 }, condition: { version: 1 } })).toEqual(
      note('1', { text: 'edited', version: 2 }),
    );
    expect(await Note.update(fields, { set: { text: 'lost' }, add: { version: 1 }, condition: { version: 1 } })).toBeNull();
    expect(await Note.get(fields)).toEqual(note('1', { text: 'edited', version: 2 }));
  });

  it('creates with the entity name, counts with add, removes, and answers a boolean when told', async () => {
    expect(await Counter.update({ box: 'e' }, { add: { n: 1 }, condition: { $or: [{ n: { exists: false } }, { n: { lt: 2 } }] }, returnValues: 'NONE' })).toBe(
      true,
    );
    expect(await Counter.update({ box: 'e' }, { add: { n: 1 }, condition: { $or: [{ n: { exists: false } }, { n: { lt: 2 } }] } })).toBe(2);
    expect(await Counter.update({ box: 'e' }, { add: { n: 1 }, condition: { $or: [{ n: { exists: false } }, { n: { lt: 2 } }] }, returnValues: 'NONE' })).toBe(
      false,
    );
    expect(await raw(Counter.key({ box: 'e' }))).toEqual({ pk: 'BOX#e', sk: 'COUNT', entity: 'counter', n: 2 });
    await Counter.update({ box: 'e' }, { set: { extra: 'x', skipped: undefined }, setIfAbsent: { since: 5 } });
    await Counter.update({ box: 'e' }, { remove: ['extra'], setIfAbsent: { since: 9 } });
    expect(await raw(Counter.key({ box: 'e' }))).toEqual({ pk: 'BOX#e', sk: 'COUNT', entity: 'counter', n: 2, since: 5 });
  });

  it('deletes under a condition: false, and the item kept, when it does not hold', async () => {
    const fields = { box: 'f', author: 'u', id: '1' };
    await Note.put(fields, note('1'));
    expect(await Note.delete(fields, { condition: { version: 7 } })).toBe(false);
    expect(await Note.get(fields)).not.toBeNull();
    expect(await Note.delete(fields, { condition: { $not: { version: 7 } } })).toBe(true);
    expect(await Note.get(fields)).toBeNull();
    expect(await Note.delete(fields)).toBe(true);
  });
});

describe('query, count and index', () => {
  beforeAll(async () => {
    await Note.putMany(['1', '2', '3'].map((id) => [{ box: 'q', author: id === '3' ? 'w' : 'u', id }, note(id, { status: id === '2' ? 'closed' : 'open' })]));
    await Counter.update({ box: 'q' }, { add: { n: 1 } });
  });

  it('reads only its own items of the partition, in order or reversed, under a key start, filtered', async () => {
    expect((await Note.query({ box: 'q' })).map((n) => n.id)).toEqual(['1', '2', '3']);
    expect((await Note.query({ box: 'q' }, { reverse: true })).map((n) => n.id)).toEqual(['3', '2', '1']);
    expect((await Note.query({ box: 'q' }, { under: ['u'] })).map((n) => n.id)).toEqual(['1', '2']);
    expect((await Note.query({ box: 'q' }, { filter: { status: 'open' } })).map((n) => n.id)).toEqual(['1', '3']);
    expect(await Note.count({ box: 'q' })).toBe(3);
    expect(await Note.count({ box: 'q' }, { filter: { status: { ne: 'open' } } })).toBe(1);
  });

  it('reads its items in an index it declares', async () => {
    await Note.put({ box: 'i', author: 'u', id: '1' }, { ...note('1'), gsi1pk: 'STATUS#held', gsi1sk: 'AT#2' });
    await Note.put({ box: 'j', author: 'u', id: '2' }, { ...note('2'), gsi1pk: 'STATUS#held', gsi1sk: 'AT#1' });
    expect((await Note.index('gsi1').query({ status: 'held' })).map((n) => n.id)).toEqual(['2', '1']);
  });
});

describe('page', () => {
  const scope = { guildId: 'p', family: 'notes', filter: {} };
  beforeAll(async () => {
    await Note.putMany(['1', '2', '3', '4', '5'].map((id) => [{ box: 'p', author: 'u', id }, note(id)]));
  });

  it('walks the list by its signed cursors, and finds a page by number without one', async () => {
    const first = await Note.page({ box: 'p' }, { page: 1, page_size: 2 }, { scope, reverse: true, shown: (n) => n.id });
    expect(first).toMatchObject({ items: ['5', '4'], page: 1, page_size: 2, total: 5 });
    const second = await Note.page({ box: 'p' }, { page: 1, page_size: 2, cursor: first.next_cursor! }, { scope, reverse: true, shown: (n) => n.id });
    expect(second).toMatchObject({ items: ['3', '2'], page: 2, total: 5 });
    const third = await Note.page({ box: 'p' }, { page: 1, page_size: 2, cursor: second.next_cursor! }, { scope, reverse: true, shown: (n) => n.id });
    expect(third).toEqual({ items: ['1'], page: 3, page_size: 2, total: 5, next_cursor: null });
    expect((await Note.page({ box: 'p' }, { page: 2, page_size: 2 }, { scope, reverse: true, shown: (n) => n.id })).items).toEqual(['3', '2']);
    expect((await Note.page({ box: 'p' }, { page: 4, page_size: 2 }, { scope })).items).toEqual([]);
  });

  it('refuses a cursor issued for another list with a 422 naming the cursor', async () => {
    const first = await Note.page({ box: 'p' }, { page: 1, page_size: 2 }, { scope });
    const other = { ...scope, guildId: 'other' };
    await expect(Note.page({ box: 'p' }, { page: 1, page_size: 2, cursor: first.next_cursor! }, { scope: other })).rejects.toMatchObject({
      message: expect.stringContaining("'cursor'"),
    });
  });

  it('ends a page early rather than pass the answer bytes, and the next page starts where it ended', async () => {
    const big = (n: { id: string }) => ({ id: n.id, padding: 'x'.repeat(400_000) });
    const first = await Note.page({ box: 'p' }, { page: 1, page_size: 5 }, { scope, shown: big });
    expect(first.items.map((n) => n.id)).toEqual(['1', '2']);
    const second = await Note.page({ box: 'p' }, { page: 1, page_size: 5, cursor: first.next_cursor! }, { scope, shown: big });
    expect(second.items.map((n) => n.id)).toEqual(['3', '4']);
    expect(second.page).toBe(2);
  });
});

describe('batches and transactions', () => {
  it('reads many in the order asked, null where none; deletes many', async () => {
    await Note.putMany([[{ box: 'm', author: 'u', id: '1' }, note('1')]]);
    const keys = [
      { box: 'm', author: 'u', id: 'none' },
      { box: 'm', author: 'u', id: '1' },
    ];
    expect(await Note.getMany(keys)).toEqual([null, note('1')]);
    await Note.deleteMany(keys);
    expect(await Note.getMany(keys)).toEqual([null, null]);
  });

  it('writes every action or none, answering which action found its condition false', async () => {
    const fields = { box: 't', author: 'u', id: '1' };
    expect(await transact([Note.tx.put(fields, note('1'), { ifAbsent: true }), Counter.tx.update({ box: 't' }, { add: { n: 1 } })], 'busy')).toBeNull();
    expect(await transact([Counter.tx.update({ box: 't' }, { add: { n: 1 } }), Note.tx.put(fields, note('1'), { ifAbsent: true })], 'busy')).toBe(1);
    expect(await Counter.get({ box: 't' })).toBe(1);
    expect(await transact([Note.tx.delete(fields), Counter.tx.delete({ box: 't' }, { condition: { n: 2 } })], 'busy')).toBe(1);
    expect(await Note.get(fields)).not.toBeNull();
    expect(
      await transact(
        [Note.tx.update(fields, { add: { version: 1 }, condition: { version: 1 } }), Counter.tx.delete({ box: 't' }, { condition: { n: 1 } })],
        'busy',
      ),
    ).toBeNull();
    expect(await Note.get(fields)).toMatchObject({ version: 2 });
    expect(await Counter.get({ box: 't' })).toBeNull();
  });
});
