/** The sandbox platform's global rate limit (SandboxOptions.globalRate): what a bot past it is answered. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '#infra/local/sandbox/server.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ globalRate: 3 });
});
afterAll(() => sandbox.close());

it('answers 429 with global: true and the wait past the requests a second it allows, then serves again', async () => {
  const get = () => fetch(`${sandbox.url}/users/@me`, { headers: { authorization: 'Bot sandbox' } });
  const answers = [];
  for (let i = 0; i < 4; i++) answers.push(await get());
  expect(answers.slice(0, 3).map((a) => a.status)).not.toContain(429);
  const limited = answers[3]!;
  expect(limited.status).toBe(429);
  expect(limited.headers.get('x-ratelimit-global')).toBe('true');
  const body = (await limited.json()) as { global: boolean; retry_after: number };
  expect(body.global).toBe(true);
  expect(body.retry_after).toBeGreaterThan(0);
  expect(body.retry_after).toBeLessThanOrEqual(1);
  await new Promise((resolve) => setTimeout(resolve, body.retry_after * 1000 + 20));
  expect((await get()).status).not.toBe(429);
});
