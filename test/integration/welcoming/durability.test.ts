/**
 * Nothing due is lost by a restart, and no decision depends on an index:
 * local mode on disk stopped while a timed role falls due, and local mode
 * with its indexes lagging as DynamoDB's do on AWS.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocal } from '#infra/local/start.js';
import { bodyText, SERVICE_TOKEN, type TestService, snowflake } from '#test/helpers/local.js';
import { addResponse, addTimedRole, check, dmsOf, eventually, failed, ok, startWorld, welcomingGuild, worldOf } from './helpers.js';

/** Local mode over a table on disk, so it can be stopped and started again. */
async function startOnDisk(dataDir: string): Promise<TestService> {
  const service = await startLocal({ port: 0, dataDir, serviceToken: SERVICE_TOKEN, printLogs: false });
  const call: TestService['call'] = async (method, path, options = {}) => {
    const res = await fetch(new URL(service.url + path), {
      method,
      headers: { authorization: `Bearer ${SERVICE_TOKEN}`, 'content-type': 'application/json', ...options.headers },
      body: bodyText(options),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null, text };
  };
  return Object.assign(service, { call });
}

describe('a restart with a timed role pending', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'welcoming-restart-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('grants the role after the restart when it fell due while the service was down', async () => {
    let service = await startOnDisk(dataDir);
    let world = worldOf(service);
    const guild = await welcomingGuild(world, { timedroles_enabled: true });
    const role = snowflake();
    await addTimedRole(world, guild, role, 2);
    const member = snowflake();
    ok(await check(world, 'role/on-join', guild, member));
    await service.stop();
    await new Promise((resolve) => setTimeout(resolve, 3000));

    // A new process, a new (empty) sandbox platform: the grant comes from the table alone.
    service = await startOnDisk(dataDir);
    world = worldOf(service);
    try {
      await eventually(async () => (await world.sandbox.roles(guild, member)).includes(role), 'the timed role after the restart', 30_000);
    } finally {
      await service.stop();
    }
  }, 60_000);
});

describe('with lagging indexes', () => {
  const world = startWorld({ indexLagMs: 2000 });

  it('acts on responses, settings, limits and grants the moment they are written', async () => {
    const guild = await welcomingGuild(world, { welcome_messages_dm_enabled: true, timedroles_enabled: true });
    const member = snowflake();
    await world.members.join(guild, member);

    // A response named a moment ago is the one sent; deleting it clears the setting at once.
    await addResponse(world, guild, 1, 'oldest');
    const named = await addResponse(world, guild, 1, 'named');
    ok(await world.call('PUT', '/settings', { body: { guild_id: guild, welcome_message_dm_response_id: named.response_id } }));
    ok(await check(world, 'welcome/dm', guild, member));
    expect((await dmsOf(world, member)).map((m) => m.content)).toEqual(['named']);
    expect(ok(await world.call('GET', '/responses', { query: { guild_id: guild, response_type: 1 } })).responses).toHaveLength(2);
    ok(await world.call('DELETE', `/responses/${named.response_id}`, { body: { guild_id: guild } }));
    expect(ok(await world.call('GET', '/settings', { query: { guild_id: guild } })).settings.welcome_message_dm_response_id).toBeNull();

    // The limit counts responses made a moment ago.
    for (let i = 0; i < 20; i++) await addResponse(world, guild, 3, `bye ${i}`);
    failed(
      await world.call('POST', '/responses', { body: { guild_id: guild, response_type: 3, is_embed: false, content: 'one more' } }),
      422,
      'Unprocessable Entity',
    );

    // A grant scheduled a moment ago is counted, cancelled by a leave, and (for another member) made on time.
    const role = snowflake();
    await addTimedRole(world, guild, role, 1);
    ok(await check(world, 'role/on-join', guild, member));
    expect(ok(await world.call('GET', '/privacy/get-user-entries', { query: { guild_id: guild, privacy_member_id: member } })).id).toBe(1);
    expect(ok(await check(world, 'leave/channel', guild, member)).message).toContain('Cancelled 1 pending timed role');
    const stays = snowflake();
    await world.members.join(guild, stays);
    ok(await check(world, 'role/on-join', guild, stays));
    await eventually(async () => (await world.sandbox.roles(guild, stays)).includes(role), 'the timed role');
    expect(await world.sandbox.roles(guild, member)).toEqual([]);
  });
});
