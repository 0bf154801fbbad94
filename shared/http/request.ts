/**
 * What the endpoint factory and the `Idempotency-Key` handling read of an
 * API Gateway event, spelled once: a header by its case-insensitive name,
 * and the body as text.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';

/** A header's value as sent, whatever the case of its name (lower-case `name`), or undefined. */
export function headerOf(event: APIGatewayProxyEvent, name: string): string | undefined {
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === name && value !== undefined) return value;
  }
  return undefined;
}

/** The body as UTF-8 text (decoded when API Gateway sent it base64), or null/undefined when there is none. */
export function bodyTextOf(event: APIGatewayProxyEvent): string | null | undefined {
  return event.isBase64Encoded && event.body ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}
