import { expect } from 'vitest';
import { PlatformError } from '#shared/platform/client.js';

/** Awaits a platform call that must fail, and answers its PlatformError. */
export async function platformFailure(promise: Promise<unknown>): Promise<PlatformError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PlatformError);
  return error as PlatformError;
}
