import { AppError } from '../errors.js';

/** Request bodies are at most 64 KiB (contract 3.6). */
export const MAX_BODY_BYTES = 64 * 1024;

export const payloadTooLarge = (bytes: number) =>
  new AppError('PayloadTooLargeError', `The request body is ${bytes} bytes; at most ${MAX_BODY_BYTES} bytes (64 KiB) are accepted.`);

/** Throws 413 when a body is over the limit; counts bytes, not characters. */
export function checkBodySize(body: string | null | undefined, isBase64 = false): void {
  if (!body) return;
  const bytes = isBase64 ? Buffer.from(body, 'base64').length : Buffer.byteLength(body, 'utf8');
  if (bytes > MAX_BODY_BYTES) throw payloadTooLarge(bytes);
}
