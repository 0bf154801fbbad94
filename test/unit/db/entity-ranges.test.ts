/**
 * Entity operations on a real (embedded) table that the stores of lists
 * read by key and of deletes answering what they removed need: a range
 * from a sort key on (one key condition, as DynamoDB requires), a page
 * read by key from a signed cursor, and a delete answering the record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTable, startEmbeddedDynamo } from '#infra/local/table.js';
import { resetDb } from '#shared/db/client.js';
import { entity } from '#shared/db/entity.js';
import { readKeyPage } from '#shared/db/page.js';
import { readPage } from '#shared/db/page.js';

const Row = entity({
  name: 'test_row',
  prefix: 'ROW#',
  pk: (f: { group: string }) => `T#${f.group}`,
  sk: (f: { group: string; id: string }) => [f.id],
  parse: (item) => ({ id: String(item.id), n: Number(item.n) }),
});
/** Rows listed in gsi1 under their colour too. */
const Tagged = entity({
  name: 'test_tagged',
  prefix: 'TAGGED#',
  pk: (f: { group: string }) => `T#${f.group}`,
  sk: (f: { group: string; id: string }) => [f.id],
  parse: (item) => String(item.id),
  indexes: { gsi1: { pk: (f: { colour: string }) => `COLOUR#${f.colour}`, prefix: 'TAGGED#' } },
});
/** Sorts right after every ROW# key: a range of ROW# must never reach it. */
const Other = entity({ name: 'test_other', prefix: 'ROX#', pk: (f: { group: string }) => `T#${f.group}`, parse: (item) => item });

const scope = { guildId: 'g', family: 'test/rows', filter: {} };
let stop: () => Promise<void>;

beforeAll(async () => {
  const { endpoint, close } = await startEmbeddedDynamo(null);
  const table = `entity-ranges-${process.pid}`;
  await ensureTable(endpoint, table);
  Object.assign(process.env, { TABLE_NAME: table, DYNAMODB_ENDPOINT: endpoint, AWS_REGION: 'local', CURSOR_SECRET: 'entity-ranges-test-secret' });
  resetDb();
  stop = async () => {
    resetDb();
    await close();
  };
  const ids = ['a', 'b', 'c', 'd', 'e'];
  await Row.putMany(
    ids.map((id, n) => [
      { group: '1', id },
      { id, n },
    ]),
  );
  await Other.put({ group: '1' }, { n: 99 });
  await Tagged.putMany(
    ['p', 'q', 'r', 's'].map((id) => [
      { group: '3', id },
      { id, gsi1pk: 'COLOUR#red', gsi1sk: `TAGGED#${id}` },
    ]),
  );
});

afterAll(() => stop?.());

describe('a range from a sort key on', () => {
  it('answers the items at or after it and under the prefix, either way round', async () => {
    const from = Row.key({ group: '1', id: 'c' }).sk;
    expect((await Row.query({ group: '1' }, { from })).map((r) => r.id)).toEqual(['c', 'd', 'e']);
    expect((await Row.query({ group: '1' }, { from, reverse: true })).map((r) => r.id)).toEqual(['e', 'd', 'c']);
    expect(await Row.count({ group: '1' }, { from })).toBe(3);
  });

  it('stays under the prefix when `from` sorts before it', async () => {
    expect((await Row.query({ group: '1' }, { from: 'A' })).map((r) => r.id)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});

describe('keyPage', () => {
  it('reads `limit` records a Query at a time and follows its signed cursor to the end', async () => {
    const first = await readKeyPage(Row, { group: '1' }, { limit: 2 }, { scope, reverse: true });
    expect(first.items.map((r) => r.id)).toEqual(['e', 'd']);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await readKeyPage(Row, { group: '1' }, { limit: 2, cursor: first.next_cursor! }, { scope, reverse: true });
    expect(second.items.map((r) => r.id)).toEqual(['c', 'b']);
    const third = await readKeyPage(Row, { group: '1' }, { limit: 2, cursor: second.next_cursor! }, { scope, reverse: true });
    expect(third.items.map((r) => r.id)).toEqual(['a']);
    expect(third.next_cursor).toBeNull();
  });

  it('refuses a cursor issued for another list with a 422 naming `cursor`', async () => {
    const first = await readKeyPage(Row, { group: '1' }, { limit: 2 }, { scope });
    const elsewhere = { ...scope, guildId: 'h' };
    await expect(readKeyPage(Row, { group: '1' }, { limit: 2, cursor: first.next_cursor! }, { scope: elsewhere })).rejects.toMatchObject({
      message: expect.stringContaining("'cursor'"),
    });
  });
});

describe('reading only some attributes', () => {
  it('answers those attributes of each item of the range, unparsed', async () => {
    expect(await Row.query({ group: '1' }, { projection: ['id'] })).toEqual(['a', 'b', 'c', 'd', 'e'].map((id) => ({ id })));
  });
});

describe('a page of an index by its number', () => {
  it('steps over the pages before by their keys, in the index', async () => {
    const page = await readPage(Tagged.index('gsi1'), { colour: 'red' }, { page: 2, page_size: 2 }, { scope });
    expect(page).toMatchObject({ items: ['r', 's'], page: 2, total: 4, next_cursor: null });
  });
});

describe('delete answering the record', () => {
  it('answers what it deleted, then null once it is gone or its condition fails', async () => {
    await Row.put({ group: '2', id: 'x' }, { id: 'x', n: 7 });
    expect(await Row.delete({ group: '2', id: 'x' }, { condition: { n: 8 }, returnOld: true })).toBeNull();
    expect(await Row.get({ group: '2', id: 'x' })).toEqual({ id: 'x', n: 7 });
    expect(await Row.delete({ group: '2', id: 'x' }, { returnOld: true })).toEqual({ id: 'x', n: 7 });
    expect(await Row.get({ group: '2', id: 'x' })).toBeNull();
    expect(await Row.delete({ group: '2', id: 'x' }, { returnOld: true })).toBeNull();
  });
});
