import type { APIGuild, APIGuildMember, APIUser } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { snowflake } from '#test/helpers/local.js';
import { startWorld } from './helpers.js';

/** The sandbox's guild and member model, as the platform answers it. */
describe('sandbox platform: guilds, members, users and DMs', () => {
  const world = startWorld();

  it('answers a guild with its name and member count, and pages members by user ID', async () => {
    const members = world.members;
    const guild = snowflake();
    await members.nameGuild(guild, 'Tea Club');
    const ids = ['100000000000000003', '100000000000000001', '100000000000000002'];
    for (const id of ids) await members.join(guild, id, { joined_at: '2026-01-02T03:04:05.000Z', nick: `n${id.slice(-1)}` });

    const got = await members.api<APIGuild>(`/guilds/${guild}?with_counts=true`);
    expect(got.body).toMatchObject({ id: guild, name: 'Tea Club', approximate_member_count: 3 });
    const first = await members.api<APIGuildMember[]>(`/guilds/${guild}/members?limit=2`);
    expect(first.body.map((m) => m.user.id)).toEqual(['100000000000000001', '100000000000000002']);
    expect(first.body[0]).toMatchObject({ joined_at: '2026-01-02T03:04:05.000Z', nick: 'n1', roles: [] });
    const rest = await members.api<APIGuildMember[]>(`/guilds/${guild}/members?limit=2&after=100000000000000002`);
    expect(rest.body.map((m) => m.user.id)).toEqual(['100000000000000003']);
    expect((await members.api(`/guilds/${guild}/members?limit=1001`)).status).toBe(400);
  });

  it('forgets a member who left: Unknown Member on reads and role changes', async () => {
    const members = world.members;
    const guild = snowflake();
    const user = snowflake();
    await members.join(guild, user, { username: 'alice', global_name: 'Alice' });
    expect((await members.api<APIGuildMember>(`/guilds/${guild}/members/${user}`)).body.user).toMatchObject({ username: 'alice', global_name: 'Alice' });
    await members.leave(guild, user);
    const gone = await members.api<{ code: number }>(`/guilds/${guild}/members/${user}`);
    expect(gone).toEqual({ status: 404, body: { code: 10007, message: 'Unknown Member' } });
    const role = await fetch(`${world.service.sandboxUrl}/guilds/${guild}/members/${user}/roles/${snowflake()}`, {
      method: 'PUT',
      headers: { authorization: 'Bot x' },
    });
    expect(role.status).toBe(404);
    expect((await members.api<APIUser>(`/users/${user}`)).body).toMatchObject({ id: user, username: 'alice' });
  });

  it('refuses a DM to a member who does not accept DMs (403, code 50007)', async () => {
    const members = world.members;
    const user = snowflake();
    const headers = { authorization: 'Bot x', 'content-type': 'application/json' };
    const dm = (await (
      await fetch(`${world.service.sandboxUrl}/users/@me/channels`, { method: 'POST', headers, body: JSON.stringify({ recipient_id: user }) })
    ).json()) as { id: string };
    const send = () => fetch(`${world.service.sandboxUrl}/channels/${dm.id}/messages`, { method: 'POST', headers, body: JSON.stringify({ content: 'hi' }) });
    await members.refuseDms(user);
    const refused = await send();
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ code: 50007, message: 'Cannot send messages to this user' });
    await members.acceptDms(user);
    expect((await send()).status).toBe(200);
    const state = await world.sandbox.state();
    expect(state.channels.find((c) => c.id === dm.id)?.messages.map((m) => m.content)).toEqual(['hi']);
  });
});
