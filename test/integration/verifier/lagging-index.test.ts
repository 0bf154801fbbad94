/** Handling decides on base-table reads only: with indexes lagging as on AWS, a verification answered right after it was posted works. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type TestService, snowflake, startTestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ indexLagMs: 5000 });
});
afterAll(() => service.stop());

it('verifies a member who answers the moment the prompt is posted', async () => {
  const guild = snowflake();
  const member = snowflake();
  expect((await service.call('POST', '/modules/verifier/enable', { body: { guild_id: guild } })).status).toBe(200);
  expect(
    (await service.call('PUT', '/modules/verifier/settings', { body: { guild_id: guild, verifier_channel: await sandboxOf(service).channelIn(guild) } }))
      .status,
  ).toBe(200);
  const created = await service.call('POST', '/modules/verifier/event/create-verification', {
    body: { guild_id: guild, requester: member },
    headers: { 'x-acting-user-id': member },
  });
  const answered = await service.call('POST', '/modules/verifier/event/handle-verification', {
    body: { verifier_id: created.body.data.verifier_id },
    headers: { 'x-acting-user-id': member },
  });
  expect(answered.status, answered.text).toBe(200);
  expect(answered.body.data.message).toContain('is verified');
});
