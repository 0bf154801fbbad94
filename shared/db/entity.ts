/**
 * Entities of the single table: each stored kind of item is defined once,
 * with its key layout as functions of its fields, the prefix its keys begin
 * with, and how an item read back becomes its record. Key strings are
 * spelled only in these definitions; other code asks an entity for a key
 * (`Response.key(...)`), an item to write (`Response.item(...)`), a record
 * (`Response.parse(item)`) or its prefix (`Counter.prefix`).
 */
import { ENTITY_ATTRIBUTE } from './table.js';

/** The table key of an item. */
export type Key = { pk: string; sk: string };
/** An item as the document client reads and writes it. */
export type Item = Record<string, unknown>;

/**
 * A family of partition keys (or index keys): a prefix, and the parts after
 * it joined by `#`. `guildKey('1')` is `G#1`; `guildKey.prefix` is `G#`.
 */
export function partition<Parts extends string[]>(prefix: string): ((...parts: Parts) => string) & { readonly prefix: string } {
  return Object.assign((...parts: Parts) => `${prefix}${parts.join('#')}`, { prefix });
}

export interface EntityDefinition<Fields, Record> {
  /** The `entity` attribute every item of it carries. */
  name: string;
  /** What its sort keys begin with: the rest comes from `sk` (none for a single item per partition). */
  prefix: string;
  /** Its partition key. */
  pk: (fields: Fields) => string;
  /** Its sort key after the prefix; its parts are joined by `#`. */
  sk?: (fields: Fields) => readonly string[];
  /** An item read back as its record. */
  parse: (item: Item) => Record;
}

export interface Entity<Fields, Record> {
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
}

export function entity<Fields, Record>(definition: EntityDefinition<Fields, Record>): Entity<Fields, Record> {
  const { name, prefix, pk, sk, parse } = definition;
  const key = (fields: Fields): Key => ({ pk: pk(fields), sk: sk ? `${prefix}${sk(fields).join('#')}` : prefix });
  return {
    name,
    prefix,
    key,
    item: (fields, attributes) => ({ ...key(fields), [ENTITY_ATTRIBUTE]: name, ...attributes }),
    parse,
    under: (...parts) => `${prefix}${parts.map((part) => `${part}#`).join('')}`,
    holds: (item) => String(item.sk).startsWith(prefix),
  };
}
