/**
 * `npm run bot:check` (clients/bot/check.ts): every guild the bot is in, every
 * module the guild enabled, its problems or "no problems"; exit code 1 when
 * any. Against local mode and the sandbox, with the bot's own configuration.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check } from '../../../clients/bot/check.js';
import { SERVICE_TOKEN, ok, snowflake, startTestService, type TestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const run = async () => {
  const lines: string[] = [];
  const config = { platformApiBaseUrl: service.sandboxUrl!, botToken: 'test', serviceUrl: service.url, serviceToken: SERVICE_TOKEN };
  const code = await check(config, (line) => lines.push(line));
  return { code, lines };
};

describe('bot:check', () => {
  it('prints the problems of each enabled module of each guild, and exits 1 while there is any', async () => {
    const sandbox = sandboxOf(service);
    const [first, second] = [snowflake(), snowflake()].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1)) as [string, string];
    const role = await sandbox.roleIn(first);
    await sandbox.roleIn(second);
    ok(await service.call('POST', '/modules/welcoming/enable', { body: { guild_id: first } }));
    ok(await service.call('PUT', '/modules/welcoming/settings', { body: { guild_id: first, autorole_role_ids: [role] } }));
    ok(await service.call('POST', '/modules/verifier/enable', { body: { guild_id: first } }));

    expect(await run()).toEqual({
      code: 0,
      lines: [
        `Guild guild-${first.slice(-4)} (${first})`,
        '  welcoming: no problems',
        '  verifier: no problems',
        `Guild guild-${second.slice(-4)} (${second})`,
        '  no module enabled',
      ],
    });

    await sandbox.forbidRole(first, role);
    const after = await run();
    expect(after.code).toBe(1);
    expect(after.lines[1]).toBe(
      `  welcoming: role_above_bot: Role ${role} (autorole_role_ids) is not below the bot's highest role; move the bot's role above it.`,
    );
  });
});
