import { createHash } from 'node:crypto';

/**
 * A value of any length as a key of fixed size: its SHA-256 in base64url (43
 * characters). For what a stranger writes (a feed URL, an item's guid or
 * link), which may be longer than DynamoDB's key limits (2048 bytes for a
 * partition key, 1024 for a sort key); the item keeps the value itself as an
 * attribute where it needs it.
 */
export const fixedKey = (value: string): string => createHash('sha256').update(value, 'utf8').digest('base64url');
