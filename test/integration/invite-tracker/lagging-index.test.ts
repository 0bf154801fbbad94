/** Attribution decides on base-table reads only: with local mode's indexes lagging as on AWS, a join right after its invite is still exact. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type TestService, snowflake, startTestService } from '#test/helpers/local.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ indexLagMs: 5000 });
});
afterAll(() => service.stop());

const IT = '/modules/invite-tracker';

it('attributes a join through an invite recorded a moment before, and marks the leave right after', async () => {
  const origin = service.sandboxUrl!.replace(/\/api\/v10$/, '');
  const control = (path: string, body: unknown = {}, method = 'POST') =>
    fetch(`${origin}/_sandbox${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const guild = snowflake();
  const channel = snowflake();
  await control(`/channels/${channel}`, { guild_id: guild }, 'PUT');
  expect((await service.call('POST', `${IT}/enable`, { body: { guild_id: guild } })).status).toBe(200);
  const owner = snowflake();
  const created = await service.call('POST', `${IT}/invites`, {
    body: { guild_id: guild, channel_id: channel, max_uses: 0, max_age: 0, is_temporary: false },
    headers: { 'x-acting-user-id': owner },
  });
  const code = created.body.data.invite_code as string;
  const member = snowflake();
  await control(`/guilds/${guild}/members/${member}/join-via-invite/${code}`);
  const joined = await service.call('POST', `${IT}/events/join/check-invite`, { body: { guild_id: guild }, headers: { 'x-acting-user-id': member } });
  expect(joined.body.data.message).toContain(`exact through invite ${code}, invited by ${owner}`);
  const left = await service.call('POST', `${IT}/events/leave/check-invite`, { body: { guild_id: guild }, headers: { 'x-acting-user-id': member } });
  expect(left.body.data.message).toContain('is marked as left');
});
