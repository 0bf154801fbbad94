/**
 * Lossless JSON parsing for request bodies.
 *
 * Snowflakes arrive as JSON integers far above 2^53. The runtime's own parser
 * hands a reviver the source text of every primitive (Node.js 22+), so an
 * integer literal that a `number` cannot hold exactly is kept as a `bigint`
 * instead; no third-party parser is needed. Fields that expect a number then
 * refuse the bigint as the wrong type, and ID fields accept it.
 */
type ReviverContext = { source?: string };

const INTEGER_LITERAL = /^-?[0-9]+$/;

function keepLargeIntegers(this: unknown, _key: string, value: unknown, context?: ReviverContext): unknown {
  if (typeof value === 'number' && !Number.isSafeInteger(value) && context?.source && INTEGER_LITERAL.test(context.source)) {
    return BigInt(context.source);
  }
  return value;
}

/** Parses JSON text; integers beyond 2^53 come back as bigint, digit for digit. */
export function parseJsonLossless(text: string): unknown {
  return JSON.parse(text, keepLargeIntegers as (key: string, value: unknown) => unknown);
}

/** Serialises a response body; a bigint (which should not reach here) is written as a string. */
export function stringifyJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v));
}
