import type { NativeAttributeValue } from '@aws-sdk/lib-dynamodb';

/** The table key of an item. */
export type Key = { pk: string; sk: string };

/** An item as the document client reads and writes it: the one item type of the table layer. */
export type Item = Record<string, NativeAttributeValue>;
