/**
 * Entities of the single table: each stored kind of item is defined once,
 * with its key layout as functions of its fields, the prefix its keys begin
 * with, and how an item read back becomes its record. Key strings are
 * spelled only in these definitions.
 *
 * An entity owns its operations, so stores call entities, never commands:
 * `get`, `put`, `update`, `delete` (each answering its parsed record, or
 * null/false when a condition did not hold), `query`/`count`/`page` over its
 * partition or a declared index, batch reads and writes (`getMany`,
 * `putMany`, `deleteMany`) and the actions of a transaction (`tx`, for
 * `transact`). Conditions and changes are plain objects (`expression.ts`).
 */
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, type QueryCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { deleteKeys, getKeys, putItems } from './batch.js';
import { db } from './client.js';
import type { CursorScope } from './cursor.js';
import { conditional, isConditionFailed } from './errors.js';
import { type Changes, type Condition, Expressions } from './expression.js';
import type { Item, Key } from './item.js';
import { ENTITY_ATTRIBUTE, TABLE, tableName } from './table.js';
import type { TransactAction } from './transact.js';

export type { Item, Key } from './item.js';

/**
 * A family of partition keys (or index keys): a prefix, and the parts after
 * it joined by `#`. `guildKey('1')` is `G#1`; `guildKey.prefix` is `G#`.
 */
export function partition<Parts extends string[]>(prefix: string): ((...parts: Parts) => string) & { readonly prefix: string } {
  return Object.assign((...parts: Parts) => `${prefix}${parts.join('#')}`, { prefix });
}

/** The names of the table's secondary indexes. */
export type IndexName = (typeof TABLE.indexes)[number]['name'];

/** An entity declaring no index. */
type NoIndexes = { [N in IndexName]?: never };

/** How an entity's items sit in a secondary index: their index partition key, and what their index sort keys begin with. */
export interface IndexDefinition<IndexFields> {
  pk: (fields: IndexFields) => string;
  prefix: string;
}

export interface EntityDefinition<Fields extends PartitionFields, Record, PartitionFields, Indexes> {
  /** The `entity` attribute every item of it carries. */
  name: string;
  /** What its sort keys begin with: the rest comes from `sk` (none for a single item per partition). */
  prefix: string;
  /** Its partition key (from the fields that name the partition: its queries take only these). */
  pk: (fields: PartitionFields) => string;
  /** Its sort key after the prefix; its parts are joined by `#`. */
  sk?: (fields: Fields) => readonly string[];
  /** An item read back as its record. */
  parse: (item: Item) => Record;
  /** The secondary indexes its items carry keys of (written by the store as attributes), to query them there. */
  indexes?: Indexes;
}

/** Which items of a partition a query reads, and how. */
export interface Range {
  /** Only the items whose sort key continues with these parts (as {@link Entity.under}); default every item of the entity. */
  under?: readonly string[];
  /** Only the items whose sort key is this one or after (a whole sort key, as `under` spells its start). */
  from?: string;
  /** Only the items whose sort key is this one or before (a whole sort key: the due index's time up to now). */
  to?: string;
  /** Newest (greatest sort key) first. */
  reverse?: boolean;
  /** Strongly consistent: default true on the table (reads that decide), always false on an index. */
  consistent?: boolean;
  /** Only the items this holds for (applied after the read: a page may come back short of items, never of its cursor). */
  filter?: Condition;
}

/** A {@link Range} read in part: at most `limit` items, from after the sort key `after`. */
export interface Reading extends Range {
  /** At most this many items (the read stops there; with a filter, this many read before it). */
  limit?: number;
  /** Only the items after this whole sort key (where a reading before stopped); on the table only. */
  after?: string;
  /** Only these attributes of each item, answered unparsed (a removal's pages of keys). */
  projection?: readonly string[];
}

/** The page fields of a request (behaviour §3.6): `page`, or the signed `cursor` of the page before, which names the page. */
export interface PageQuery {
  page: number;
  page_size: number;
  cursor?: string | undefined;
}

/** A page as behaviour §3.6 answers it; `next_cursor` is null once nothing follows. */
export interface Page<T> {
  items: T[];
  page: number;
  page_size: number;
  total: number;
  next_cursor: string | null;
}

/** How a list is paged: the scope its cursors are bound to, and each record as the answer shows it (the byte budget counts that). */
export interface PageOptions<Record, Shown> extends Range {
  scope: CursorScope;
  /** The record as the answer shows it; null leaves it out (what it points to went since). */
  shown?: (record: Record) => Shown | null | Promise<Shown | null>;
  /** The list's total where the module keeps it (a stored count), instead of counting the range. */
  total?: () => Promise<number>;
}

/** Reads over one key family: the entity's partition, or one of its indexes. */
export interface Queryable<Fields, Record> {
  /** Every item of the range (or its first `limit`), parsed, following the table's pages (lists here are bounded by module limits). */
  query(fields: Fields, range?: Reading & { projection?: undefined }): Promise<Record[]>;
  /** {@link query} reading only these attributes of each item, unparsed (as {@link Entity.get} with `projection`). */
  query<A extends string>(fields: Fields, range: Reading & { projection: readonly A[] }): Promise<{ [K in A]?: unknown }[]>;
  /** How many items the range holds (no item comes back). */
  count(fields: Fields, range?: Range): Promise<number>;
  /** The Query of a range, the key attributes a page's cursor keeps of an item, and its parse: what `page.ts` reads pages with. */
  pageReads(fields: Fields, range: Range): PageReads<Record>;
}

/** How a page of a range is read (shared/db/page.ts): the Query without its start and limit, the cursor's key attributes, the parse. */
export interface PageReads<Record> {
  input: Omit<QueryCommandInput, 'ExclusiveStartKey' | 'Limit'>;
  /** The same Query reading only `keys` (one set of generated names: a second set's placeholders would rename the key condition's). */
  keysOnly: Omit<QueryCommandInput, 'ExclusiveStartKey' | 'Limit'>;
  keys: string[];
  parse: (item: Item) => Record;
  /** The sort-key attribute the range reads by, and the lowest and highest sort key it can hold (a cursor's key outside them is not sent). */
  sortKey: { name: string; lowest: string; highest: string };
}

/** The fields of a request for a list read by key: at most `limit` records, after the `next_cursor` of the page before. */
export interface KeyPageQuery {
  limit: number;
  cursor?: string | undefined;
}

/** A page of a list read by key. */
export interface KeyPage<T> {
  items: T[];
  next_cursor: string | null;
}

/** When a write goes ahead: only where no item is (`ifAbsent`), or where a condition holds. */
export type WriteCondition = { ifAbsent?: boolean; condition?: never } | { condition?: Condition; ifAbsent?: never };

/** An update: its changes, the condition it needs, and what it answers (default the whole item after it, parsed). */
export interface Update extends Changes {
  condition?: Condition;
  returnValues?: 'ALL_NEW' | 'NONE';
}

export interface Entity<Fields extends PartitionFields, Record, PartitionFields = Fields, Indexes = unknown> extends Queryable<PartitionFields, Record> {
  readonly name: string;
  readonly prefix: string;
  key(fields: Fields): Key;
  /** The item to write: the key, the entity name, then the attributes. */
  item(fields: Fields, attributes: object): Item;
  parse(item: Item): Record;
  /** The sort-key prefix of its items whose sort keys begin with these parts (`under(memberId)`: a member's). */
  under(...parts: string[]): string;
  /** Whether an item read from a partition is one of this entity's. */
  holds(item: Item): boolean;

  /** The record, or null when there is none. Consistent unless told; with `projection`, only those attributes, unparsed. */
  get(fields: Fields, options?: { consistent?: boolean; projection?: undefined }): Promise<Record | null>;
  get<A extends string>(fields: Fields, options: { consistent?: boolean; projection: readonly A[] }): Promise<{ [K in A]?: unknown } | null>;
  /** Writes the item whole; false when its condition did not hold. */
  put(fields: Fields, attributes: object, options?: WriteCondition & { holder?: false }): Promise<boolean>;
  /**
   * {@link put} answering, when its condition did not hold, the record that
   * refused it: from the refused write itself where the table returns it
   * (DynamoDB), else read again, consistently (dynalite returns none); null
   * when it went away between the two.
   */
  put(fields: Fields, attributes: object, options: WriteCondition & { holder: true }): Promise<{ written: true } | { written: false; holder: Record | null }>;
  /** Changes the item (creating it if absent, unless the condition says otherwise); the record after, or null when the condition did not hold. */
  update(fields: Fields, update: Update & { returnValues?: 'ALL_NEW' }): Promise<Record | null>;
  /** {@link update} answering only whether it was written. */
  update(fields: Fields, update: Update & { returnValues: 'NONE' }): Promise<boolean>;
  /** Deletes the item (nothing there is no failure); false when its condition did not hold. */
  delete(fields: Fields, options?: { condition?: Condition; returnOld?: false }): Promise<boolean>;
  /** {@link delete} answering the record it deleted: null when there was none, or its condition did not hold. */
  delete(fields: Fields, options: { condition?: Condition; returnOld: true }): Promise<Record | null>;

  /** The records of these fields, consistently, in their order: null where there is none. */
  getMany(fields: readonly Fields[]): Promise<(Record | null)[]>;
  /** Writes these items whole, unconditionally, in batches. */
  putMany(items: readonly [fields: Fields, attributes: object][]): Promise<void>;
  /** Deletes the items of these fields, unconditionally, in batches. */
  deleteMany(fields: readonly Fields[]): Promise<void>;

  /** The actions of a transaction on its items, for {@link transact}. */
  readonly tx: {
    put(fields: Fields, attributes: object, options?: WriteCondition): TransactAction;
    update(fields: Fields, update: Changes & { condition?: Condition }): TransactAction;
    delete(fields: Fields, options?: { condition?: Condition }): TransactAction;
  };

  /** Its items in a secondary index it declares. */
  index<N extends keyof Indexes & IndexName>(name: N): Queryable<Indexes[N] extends IndexDefinition<infer F> ? F : never, Record>;
}

/** Where a query reads: the table or an index, its key attribute names, partition value and sort-key prefix. */
interface Family {
  index?: IndexName;
  pkName: string;
  skName: string;
  pk: string;
  prefix: string;
  consistent: boolean;
}

/** What every sort key of a range begins with: the family's prefix and the `under` parts. */
const beginsOf = (family: Family, range: Range) => (range.under ? `${family.prefix}${range.under.map((part) => `${part}#`).join('')}` : family.prefix);

/** The Query input of a range of a family: its key condition and filter, with generated names and values. */
function queryInput(family: Family, range: Range & { projection?: readonly string[] }): Omit<QueryCommandInput, 'ExclusiveStartKey' | 'Limit'> {
  const x = new Expressions();
  const begins = beginsOf(family, range);
  const key = [`${x.name(family.pkName)} = ${x.value(family.pk)}`];
  // DynamoDB takes one condition per key: `from` and the prefix are one range (sort keys are ASCII, so every key under the prefix sorts before it and U+FFFF).
  if (range.from !== undefined || (range.to !== undefined && begins)) {
    // The later of the two, and the earlier of the two (strings: Math.max does not apply).
    const lowest = range.from === undefined ? begins : [begins, range.from].sort()[1];
    const highest = range.to === undefined ? `${begins}\uffff` : [`${begins}\uffff`, range.to].sort()[0];
    key.push(`${x.name(family.skName)} BETWEEN ${x.value(lowest)} AND ${x.value(highest)}`);
  } else if (range.to !== undefined) {
    key.push(`${x.name(family.skName)} <= ${x.value(range.to)}`);
  } else if (begins) {
    // An empty prefix (an index whose sort keys share none) needs no condition.
    key.push(`begins_with(${x.name(family.skName)}, ${x.value(begins)})`);
  }
  const filter = range.filter && x.condition(range.filter);
  const projection = range.projection && x.projection(range.projection);
  return {
    TableName: tableName(),
    ...(family.index ? { IndexName: family.index } : {}),
    KeyConditionExpression: key.join(' AND '),
    ...(filter ? { FilterExpression: filter } : {}),
    ScanIndexForward: !range.reverse,
    ConsistentRead: family.index ? false : (range.consistent ?? family.consistent),
    ...(projection ? { ProjectionExpression: projection } : {}),
    ...x.attributes(),
  };
}

/** The key attributes a page's cursor keeps of its last item: the table's key, and the index's when it reads one. */
function keyAttributes(family: Family): string[] {
  return family.index ? ['pk', 'sk', family.pkName, family.skName] : ['pk', 'sk'];
}

/** The largest Limit a Query takes (a 32-bit integer): a larger one is not sent. */
const MAX_QUERY_LIMIT = 2 ** 31 - 1;

function queryable<Fields, Record>(familyOf: (fields: Fields) => Family, parse: (item: Item) => Record): Queryable<Fields, Record> {
  async function readAll(family: Family, range: Reading): Promise<Item[]> {
    const input = queryInput(family, range);
    if (range.after !== undefined && family.index) throw new Error('A reading after a sort key is on the table only');
    const items: Item[] = [];
    let start: Item | undefined = range.after === undefined ? undefined : { pk: family.pk, sk: range.after };
    do {
      const left = range.limit === undefined ? MAX_QUERY_LIMIT + 1 : range.limit - items.length;
      const out = await db().send(new QueryCommand({ ...input, ...(left <= MAX_QUERY_LIMIT ? { Limit: left } : {}), ExclusiveStartKey: start }));
      items.push(...((out.Items as Item[] | undefined) ?? []));
      start = out.LastEvaluatedKey;
    } while (start && (range.limit === undefined || items.length < range.limit));
    return items;
  }

  async function count(fields: Fields, range: Range = {}): Promise<number> {
    const input = queryInput(familyOf(fields), range);
    let total = 0;
    let start: Item | undefined;
    do {
      const out = await db().send(new QueryCommand({ ...input, Select: 'COUNT', ExclusiveStartKey: start }));
      total += out.Count ?? 0;
      start = out.LastEvaluatedKey;
    } while (start);
    return total;
  }

  return {
    query: (async (fields: Fields, range: Reading = {}) => {
      const items = await readAll(familyOf(fields), range);
      return range.projection ? items : items.map(parse);
    }) as Queryable<Fields, Record>['query'],
    count,
    pageReads: (fields, range) => {
      const family = familyOf(fields);
      const begins = beginsOf(family, range);
      const lowest = range.from !== undefined && range.from > begins ? range.from : begins;
      const keys = keyAttributes(family);
      return {
        input: queryInput(family, range),
        keysOnly: queryInput(family, { ...range, projection: keys }),
        keys,
        parse,
        sortKey: { name: family.skName, lowest, highest: range.to !== undefined && range.to < `${begins}\uffff` ? range.to : `${begins}\uffff` },
      };
    },
  };
}

/** Answers null where DynamoDB refused the write for its condition. */
async function unlessRefused<T>(write: () => Promise<T>): Promise<T | null> {
  let answer: T | null = null;
  return (await conditional(async () => (answer = await write()))) ? answer : null;
}

export function entity<
  Fields extends PartitionFields,
  Record,
  PartitionFields = Fields,
  Indexes extends { [N in IndexName]?: IndexDefinition<never> } = NoIndexes,
>(definition: EntityDefinition<Fields, Record, PartitionFields, Indexes>): Entity<Fields, Record, PartitionFields, Indexes> {
  const { name, prefix, pk, sk, parse } = definition;
  const key = (fields: Fields): Key => ({ pk: pk(fields), sk: sk ? `${prefix}${sk(fields).join('#')}` : prefix });
  const item = (fields: Fields, attributes: object): Item => ({ ...key(fields), [ENTITY_ATTRIBUTE]: name, ...attributes });

  /** The expression parts of a conditional put. */
  const putCondition = (options: WriteCondition = {}) => {
    const x = new Expressions();
    const condition = options.ifAbsent ? x.condition({ pk: { exists: false } }) : options.condition && x.condition(options.condition);
    return condition ? { ConditionExpression: condition, ...x.attributes() } : {};
  };
  const deleteCondition = (condition?: Condition) => {
    const x = new Expressions();
    const expression = condition && x.condition(condition);
    return expression ? { ConditionExpression: expression, ...x.attributes() } : {};
  };
  /** The expression parts of an update; every update keeps the entity attribute, so an item it creates carries it too. */
  const updateParts = (update: Changes & { condition?: Condition }) => {
    const x = new Expressions();
    const UpdateExpression = x.update({ ...update, set: { [ENTITY_ATTRIBUTE]: name, ...update.set } });
    const condition = update.condition && x.condition(update.condition);
    return { UpdateExpression, ...(condition ? { ConditionExpression: condition } : {}), ...x.attributes() };
  };

  async function get(fields: Fields, options: { consistent?: boolean; projection?: readonly string[] } = {}) {
    const x = new Expressions();
    const projection = options.projection ? { ProjectionExpression: x.projection(options.projection), ...x.attributes() } : {};
    const out = await db().send(new GetCommand({ TableName: tableName(), Key: key(fields), ConsistentRead: options.consistent ?? true, ...projection }));
    if (!out.Item) return null;
    return options.projection ? out.Item : parse(out.Item);
  }

  async function put(fields: Fields, attributes: object, options: WriteCondition & { holder?: boolean } = {}) {
    const { holder, ...condition } = options;
    const send = () =>
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: item(fields, attributes),
          ...putCondition(condition as WriteCondition),
          ...(holder ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
        }),
      );
    if (!holder) return conditional(send);
    try {
      await send();
      return { written: true };
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      // The document client leaves the item an error carries as the table sent it (marshalled).
      const returned = (error as { Item?: Parameters<typeof unmarshall>[0] }).Item;
      return { written: false, holder: returned ? parse(unmarshall(returned)) : ((await get(fields)) as Record | null) };
    }
  }

  async function remove(fields: Fields, options: { condition?: Condition; returnOld?: boolean } = {}) {
    const send = () =>
      db().send(
        new DeleteCommand({
          TableName: tableName(),
          Key: key(fields),
          ...deleteCondition(options.condition),
          ...(options.returnOld ? { ReturnValues: 'ALL_OLD' as const } : {}),
        }),
      );
    if (!options.returnOld) return conditional(send);
    const out = await unlessRefused(send);
    return out?.Attributes ? parse(out.Attributes) : null;
  }

  async function update(fields: Fields, change: Update) {
    const out = await unlessRefused(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: key(fields),
          ...updateParts(change),
          ReturnValues: change.returnValues === 'NONE' ? 'NONE' : 'ALL_NEW',
        }),
      ),
    );
    if (change.returnValues === 'NONE') return out !== null;
    return out && parse(out.Attributes ?? {});
  }

  const table: Family = { pkName: 'pk', skName: 'sk', pk: '', prefix, consistent: true };
  return {
    name,
    prefix,
    key,
    item,
    parse,
    under: (...parts) => `${prefix}${parts.map((part) => `${part}#`).join('')}`,
    holds: (item) => String(item.sk).startsWith(prefix),
    ...queryable<PartitionFields, Record>((fields) => ({ ...table, pk: pk(fields) }), parse),

    get: get as Entity<Fields, Record, PartitionFields, Indexes>['get'],
    put: put as Entity<Fields, Record, PartitionFields, Indexes>['put'],
    update: update as Entity<Fields, Record, PartitionFields, Indexes>['update'],
    delete: remove as Entity<Fields, Record, PartitionFields, Indexes>['delete'],

    async getMany(fields) {
      const keys = fields.map(key);
      const found = await getKeys(keys);
      const byKey = new Map(found.map((it) => [`${it.pk}\u0000${it.sk}`, it]));
      return keys.map((k) => {
        const it = byKey.get(`${k.pk}\u0000${k.sk}`);
        return it ? parse(it) : null;
      });
    },
    putMany: (items) => putItems(items.map(([fields, attributes]) => item(fields, attributes))),
    deleteMany: (fields) => deleteKeys(fields.map(key)),

    tx: {
      put: (fields, attributes, options) => ({ Put: { TableName: tableName(), Item: item(fields, attributes), ...putCondition(options) } }),
      update: (fields, change) => ({ Update: { TableName: tableName(), Key: key(fields), ...updateParts(change) } }),
      delete: (fields, options = {}) => ({ Delete: { TableName: tableName(), Key: key(fields), ...deleteCondition(options.condition) } }),
    },

    index(indexName) {
      const declared = (definition.indexes as { [N in IndexName]?: IndexDefinition<unknown> } | undefined)?.[indexName];
      const spec = TABLE.indexes.find((i) => i.name === indexName);
      if (!declared || !spec) throw new Error(`Entity ${name} declares no index ${indexName}`);
      return queryable(
        (fields) => ({
          index: indexName,
          pkName: spec.partitionKey,
          skName: spec.sortKey,
          pk: declared.pk(fields),
          prefix: declared.prefix,
          consistent: false,
        }),
        parse,
      );
    },
  };
}
