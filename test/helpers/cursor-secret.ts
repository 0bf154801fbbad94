import { afterAll, beforeAll } from 'vitest';

/** Sets a cursor secret for the file's tests (signed cursors need one) and puts back what was there after. */
export function withCursorSecret(secret = 'unit-test-cursor-secret'): void {
  const saved = process.env.CURSOR_SECRET;
  beforeAll(() => {
    process.env.CURSOR_SECRET = secret;
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.CURSOR_SECRET;
    else process.env.CURSOR_SECRET = saved;
  });
}
