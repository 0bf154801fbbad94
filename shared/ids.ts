import { randomBytes } from 'node:crypto';

/** The largest snowflake: an unsigned 64-bit integer. */
const UINT64_MAX = 18446744073709551615n;

/**
 * Reads a platform ID given as a JSON integer (number or, when parsed
 * losslessly above 2^53, bigint) or as a decimal string, and answers it as a
 * string, digit for digit. Answers null when the value is not 1 to 20 decimal
 * digits within uint64.
 */
export function parseSnowflake(value: unknown): string | null {
  let digits: string;
  if (typeof value === 'string') digits = value;
  else if (typeof value === 'bigint') digits = value.toString();
  else if (typeof value === 'number' && Number.isSafeInteger(value)) digits = String(value);
  else return null;
  if (!/^[0-9]{1,20}$/.test(digits)) return null;
  const n = BigInt(digits);
  if (n > UINT64_MAX) return null;
  // Leading zeros would make two spellings of one ID; store the canonical one.
  return n.toString();
}

/** A new service-minted ID: URL-safe, unguessable (128 random bits). */
export function mintId(): string {
  return randomBytes(16).toString('base64url');
}

/** A new secret for a bearer credential (256 random bits). */
export function mintSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * A minted ID that sorts by creation time: the time in base 36, then
 * {@link mintId}'s random part. Records keyed by it list newest first from
 * their sort keys alone.
 */
export const mintOrderedId = (now = Date.now()) => `${orderedIdFloor(now)}${mintId()}`;

/** The time part of an ordered ID minted at `ms`: every ID minted then or later sorts at or after it. */
export const orderedIdFloor = (ms: number) => ms.toString(36).padStart(9, '0');
