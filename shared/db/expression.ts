/**
 * Condition and update expressions built from plain objects. Every attribute
 * name becomes a generated `#n<i>` and every value a generated `:v<i>`, so
 * no caller spells an expression, reserves a placeholder or worries about
 * DynamoDB's reserved words (`name`, `status`, `count`...).
 *
 * A condition is an object of attribute tests, all of which must hold:
 * `{ version: 3 }` (equals), `{ tags: { lt: 1000 } }`, `{ follow: { exists: false } }`;
 * `$or`, `$and` and `$not` combine conditions:
 * `{ $or: [{ tags: { exists: false } }, { tags: { lt: max } }] }`.
 *
 * An attribute name with dots is a document path, as in DynamoDB's own
 * expressions: `'timedroles.123'` is the member `123` of the map
 * `timedroles` (each part gets its own placeholder), in conditions and in
 * changes alike. Attribute names of this table have no dots of their own.
 */
import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';

/** A test of one attribute: a string, number or boolean is "equals"; otherwise each operator given must hold. */
export type Test =
  | string
  | number
  | boolean
  | {
      eq?: NativeAttributeValue;
      ne?: NativeAttributeValue;
      lt?: NativeAttributeValue;
      le?: NativeAttributeValue;
      gt?: NativeAttributeValue;
      ge?: NativeAttributeValue;
      /** true: the attribute is there; false: it is not. */
      exists?: boolean;
      beginsWith?: string;
      /** The attribute (a list, set or string) contains this value. */
      contains?: NativeAttributeValue;
      /** Comparisons of the attribute's size (a map's or list's entries, a string's characters). */
      size?: { [Op in keyof typeof COMPARISONS]?: number };
    };

/**
 * Attribute tests that must all hold; `$or`/`$and` (some/all of several conditions) and `$not` combine them. Undefined tests are left out.
 * A name with dots is a path into maps: `'votes.2'` tests the key `2` of the map `votes`.
 */
export interface Condition {
  readonly $or?: readonly Condition[];
  readonly $and?: readonly Condition[];
  readonly $not?: Condition;
  readonly [attribute: string]: Test | Condition | readonly Condition[] | undefined;
}

/** A change to an item: attributes set (undefined values are left out), numbers added to (or set members added), attributes removed. */
export interface Changes {
  set?: Record<string, NativeAttributeValue>;
  /** Values set only where the attribute is not there yet (`if_not_exists`). */
  setIfAbsent?: Record<string, NativeAttributeValue>;
  add?: Record<string, number | Set<string> | Set<number>>;
  /** Attributes set to the value another attribute of the item has (`SET claim_gen = gen`). */
  copy?: Record<string, string>;
  /** Members taken out of sets (`DELETE`). */
  delete?: Record<string, Set<string> | Set<number>>;
  remove?: readonly string[];
}

const COMPARISONS = { eq: '=', ne: '<>', lt: '<', le: '<=', gt: '>', ge: '>=' } as const;

/** The names and values one request's expressions share, generated as they are used. */
export class Expressions {
  private readonly names: Record<string, string> = {};
  private readonly values: Record<string, NativeAttributeValue> = {};
  private readonly nameOf = new Map<string, string>();
  private count = 0;

  /** The placeholder of an attribute name, or the placeholders of a document path's parts joined by dots (one per name, however often it is used). */
  name(attribute: string): string {
    return attribute
      .split('.')
      .map((part) => this.part(part))
      .join('.');
  }

  private part(attribute: string): string {
    let placeholder = this.nameOf.get(attribute);
    if (!placeholder) {
      placeholder = `#n${this.nameOf.size}`;
      this.nameOf.set(attribute, placeholder);
      this.names[placeholder] = attribute;
    }
    return placeholder;
  }

  /** The placeholder of a value. */
  value(value: NativeAttributeValue): string {
    const placeholder = `:v${this.count++}`;
    this.values[placeholder] = value;
    return placeholder;
  }

  /** A condition's expression; undefined when it tests nothing. */
  condition(condition: Condition): string | undefined {
    const parts: string[] = [];
    for (const [attribute, test] of Object.entries(condition)) {
      if (test === undefined) continue;
      if (attribute === '$or' || attribute === '$and') {
        const each = (test as readonly Condition[]).map((c) => this.condition(c)).filter((c) => c !== undefined);
        if (each.length > 0) parts.push(`(${each.join(attribute === '$or' ? ' OR ' : ' AND ')})`);
      } else if (attribute === '$not') {
        const inner = this.condition(test as Condition);
        if (inner) parts.push(`(NOT ${inner})`);
      } else {
        parts.push(...this.tests(attribute, test as Test));
      }
    }
    return parts.length > 0 ? parts.join(' AND ') : undefined;
  }

  private tests(attribute: string, test: Test): string[] {
    const name = this.name(attribute);
    if (typeof test !== 'object' || test === null) return [`${name} = ${this.value(test)}`];
    const parts: string[] = [];
    for (const [op, operand] of Object.entries(test)) {
      if (operand === undefined) continue;
      if (op === 'exists') parts.push(operand ? `attribute_exists(${name})` : `attribute_not_exists(${name})`);
      else if (op === 'beginsWith') parts.push(`begins_with(${name}, ${this.value(operand)})`);
      else if (op === 'contains') parts.push(`contains(${name}, ${this.value(operand)})`);
      else if (op === 'size') parts.push(...this.comparisons(`size(${name})`, attribute, operand as Record<string, number | undefined>));
      else parts.push(...this.comparisons(name, attribute, { [op]: operand }));
    }
    return parts;
  }

  private comparisons(operand: string, attribute: string, test: Record<string, NativeAttributeValue>): string[] {
    const parts: string[] = [];
    for (const [op, value] of Object.entries(test)) {
      if (value === undefined) continue;
      if (!(op in COMPARISONS)) throw new Error(`Unknown condition operator '${op}' on '${attribute}'`);
      parts.push(`${operand} ${COMPARISONS[op as keyof typeof COMPARISONS]} ${this.value(value)}`);
    }
    return parts;
  }

  /** An update's expression. */
  update(changes: Changes): string {
    const set = Object.entries(changes.set ?? {})
      .filter(([, value]) => value !== undefined)
      .map(([attribute, value]) => `${this.name(attribute)} = ${this.value(value)}`);
    for (const [attribute, value] of Object.entries(changes.setIfAbsent ?? {})) {
      if (value === undefined) continue;
      const name = this.name(attribute);
      set.push(`${name} = if_not_exists(${name}, ${this.value(value)})`);
    }
    for (const [attribute, source] of Object.entries(changes.copy ?? {})) set.push(`${this.name(attribute)} = ${this.name(source)}`);
    const add = Object.entries(changes.add ?? {}).map(([attribute, value]) => `${this.name(attribute)} ${this.value(value)}`);
    const taken = Object.entries(changes.delete ?? {}).map(([attribute, value]) => `${this.name(attribute)} ${this.value(value)}`);
    const remove = (changes.remove ?? []).map((attribute) => this.name(attribute));
    return [
      set.length > 0 ? `SET ${set.join(', ')}` : '',
      add.length > 0 ? `ADD ${add.join(', ')}` : '',
      taken.length > 0 ? `DELETE ${taken.join(', ')}` : '',
      remove.length > 0 ? `REMOVE ${remove.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join(' ');
  }

  /** A projection of these attributes. */
  projection(attributes: readonly string[]): string {
    return attributes.map((attribute) => this.name(attribute)).join(', ');
  }

  /** The names and values to send with the expressions, each only when any was used. */
  attributes(): { ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Record<string, NativeAttributeValue> } {
    return {
      ...(this.nameOf.size > 0 ? { ExpressionAttributeNames: this.names } : {}),
      ...(this.count > 0 ? { ExpressionAttributeValues: this.values } : {}),
    };
  }
}
