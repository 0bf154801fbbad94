/**
 * The verifier's web links (behaviour §13): they expire, they die with a type
 * change or a newer prompt, they work once, and whatever happens the member
 * sees a page, never JSON.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '#test/helpers/sandbox.js';
import { ok, snowflake, startTestService, type TestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());
afterEach(() => sandboxOf(service).clearFaults());

const VE = '/modules/verifier';

/** Moves the service's clock (and the sandbox's) forward. */
async function advanceClock(ms: number): Promise<void> {
  const res = await fetch(`${sandboxOf(service).origin}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advance_ms: ms }),
  });
  expect(res.ok).toBe(true);
}

/** A guild with a type 3 verifier posting prompts in a channel of its own, granting a role of its own. */
async function webGuild(): Promise<{ guild: string; channel: string; role: string }> {
  const guild = snowflake();
  const sandbox = sandboxOf(service);
  const [channel, role] = [await sandbox.channelIn(guild), await sandbox.roleIn(guild)];
  ok(await service.call('POST', `${VE}/enable`, { body: { guild_id: guild } }));
  ok(
    await service.call('PUT', `${VE}/settings`, { body: { guild_id: guild, verifier_type: 3, verifier_channel: channel, verifier_verified_role_ids: [role] } }),
  );
  return { guild, channel, role };
}

/** Asks for a verification of the member and answers the link its prompt carries. */
async function linkFor(guild: string, channel: string, member: string): Promise<{ url: URL; verifierId: string }> {
  const { verifier_id } = ok(
    await service.call('POST', `${VE}/event/create-verification`, { body: { guild_id: guild, requester: member }, headers: { 'x-acting-user-id': member } }),
  );
  const messages = (await (await fetch(`${service.sandboxUrl}/channels/${channel}/messages`, { headers: { authorization: 'Bot test' } })).json()) as Message[];
  const url = new URL(messages[0]!.components![0]!.components[0]!.url!);
  expect(url.pathname).toBe(`${VE}/web/${verifier_id}`);
  return { url, verifierId: verifier_id };
}

interface PageAnswer {
  status: number;
  html: string;
}

/** Opens (GET) or submits (POST) a link; every answer must be an HTML page, never JSON, kept out of caches. */
async function visit(url: URL | string, method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' = 'GET', body?: string): Promise<PageAnswer> {
  const res = await fetch(url, { method, body });
  const html = await res.text();
  expect(res.headers.get('content-type'), html).toMatch(/^text\/html/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(html).toMatch(/^<!doctype html>/);
  expect(html).not.toMatch(/"success"\s*:/);
  return { status: res.status, html };
}

const REFUSED = 'This link does not work';

/** The link is refused on both routes, and the member is neither verified nor given the role. */
async function expectRefused(url: URL, guild: string, verifierId: string, member: string): Promise<void> {
  for (const method of ['GET', 'POST'] as const) {
    const page = await visit(url, method);
    expect(page.status, method).toBe(403);
    expect(page.html).toContain(REFUSED);
  }
  const entry = ok(await service.call('GET', `${VE}/entries/${verifierId}`, { query: { guild_id: guild } })).entry;
  expect(entry.is_verified).toBe(false);
  expect(await sandboxOf(service).roles(guild, member)).toEqual([]);
}

/** The link verifies the member: the done page, the flag, the role. */
async function expectVerifies(url: URL, guild: string, verifierId: string, member: string, role: string): Promise<void> {
  expect((await visit(url)).status).toBe(200);
  const done = await visit(url, 'POST');
  expect(done.status).toBe(200);
  expect(done.html).toContain('You are verified.');
  expect(ok(await service.call('GET', `${VE}/entries/${verifierId}`, { query: { guild_id: guild } })).entry.is_verified).toBe(true);
  expect(await sandboxOf(service).roles(guild, member)).toEqual([role]);
}

describe('verifier web links', () => {
  it('work for a day (VERIFIER_LINK_SECONDS by default), then answer the 403 page', async () => {
    const { guild, channel, role } = await webGuild();
    const [early, late] = [snowflake(), snowflake()];
    const first = await linkFor(guild, channel, early);
    const second = await linkFor(guild, channel, late);
    await advanceClock(86_400_000 - 60_000);
    await expectVerifies(first.url, guild, first.verifierId, early, role);
    await advanceClock(61_000);
    await expectRefused(second.url, guild, second.verifierId, late);
  });

  it('live as long as VERIFIER_LINK_SECONDS says', async () => {
    const previous = process.env.VERIFIER_LINK_SECONDS;
    process.env.VERIFIER_LINK_SECONDS = '120';
    try {
      const { guild, channel, role } = await webGuild();
      const [a, b] = [snowflake(), snowflake()];
      const linkA = await linkFor(guild, channel, a);
      const linkB = await linkFor(guild, channel, b);
      await advanceClock(110_000);
      await expectVerifies(linkA.url, guild, linkA.verifierId, a, role);
      await advanceClock(11_000);
      await expectRefused(linkB.url, guild, linkB.verifierId, b);
    } finally {
      if (previous === undefined) delete process.env.VERIFIER_LINK_SECONDS;
      else process.env.VERIFIER_LINK_SECONDS = previous;
    }
  });

  it('die when the verifier type changes, and stay dead when it is 3 again; a new prompt works', async () => {
    const { guild, channel, role } = await webGuild();
    const member = snowflake();
    const old = await linkFor(guild, channel, member);
    ok(await service.call('PUT', `${VE}/settings`, { body: { guild_id: guild, verifier_type: 2, verifier_passphrase: 'open sesame' } }));
    await expectRefused(old.url, guild, old.verifierId, member);
    const settings = ok(await service.call('PUT', `${VE}/settings`, { body: { guild_id: guild, verifier_type: 3 } })).settings;
    expect(Object.keys(settings).filter((name) => name.startsWith('_'))).toEqual([]);
    await expectRefused(old.url, guild, old.verifierId, member);
    // Changing anything but the type leaves links alone.
    const fresh = await linkFor(guild, channel, member);
    ok(await service.call('PUT', `${VE}/settings`, { body: { guild_id: guild, verifier_message_content_completed: 'Welcome in.' } }));
    expect(fresh.verifierId).toBe(old.verifierId);
    expect((await visit(fresh.url)).status).toBe(200);
    expect((await visit(fresh.url, 'POST')).html).toContain('Welcome in.');
    expect(await sandboxOf(service).roles(guild, member)).toEqual([role]);
  });

  it('are replaced by a newer prompt of the same verification, and work once', async () => {
    const { guild, channel, role } = await webGuild();
    const member = snowflake();
    const old = await linkFor(guild, channel, member);
    const replacing = await linkFor(guild, channel, member);
    expect(replacing.verifierId).toBe(old.verifierId);
    await expectRefused(old.url, guild, old.verifierId, member);
    await expectVerifies(replacing.url, guild, replacing.verifierId, member, role);
    for (const method of ['GET', 'POST'] as const) expect((await visit(replacing.url, method)).status).toBe(403);
  });

  it('answer a wrong or malformed link with the 403 page', async () => {
    const { guild, channel } = await webGuild();
    const member = snowflake();
    const { url, verifierId } = await linkFor(guild, channel, member);
    const base = `${url.origin}${VE}/web`;
    const token = url.searchParams.get('token')!;
    const wrong = [
      `${base}/${verifierId}`,
      `${base}/${verifierId}?token=`,
      `${base}/${verifierId}?token=${token.slice(0, -1)}`,
      `${base}/${verifierId}?token=${'x'.repeat(300)}`,
      `${base}/${verifierId}?token=${'x'.repeat(5000)}`,
      `${base}/${verifierId}?token=%E0%A4%A`,
      `${base}/unknown-id?token=${token}`,
      `${base}/${'v'.repeat(300)}?token=${token}`,
      `${base}/%FF%FE?token=${token}`,
    ];
    for (const link of wrong) {
      for (const method of ['GET', 'POST'] as const) {
        const page = await visit(link, method);
        expect(page.status, `${method} ${link.slice(0, 120)}`).toBe(403);
        expect(page.html).toContain(REFUSED);
      }
    }
    // The right link still works after all that.
    expect((await visit(url)).status).toBe(200);
  });

  it('answer two submissions at once with one verification and one 403 page', async () => {
    const { guild, channel, role } = await webGuild();
    const member = snowflake();
    const { url, verifierId } = await linkFor(guild, channel, member);
    // Each submission's role grant waits, so both have read the unused link before either marks it.
    await sandboxOf(service).fault({ method: 'PUT', path: `/guilds/${guild}/members/${member}/roles/`, status: 429, retry_after: 0.3, times: 2 });
    const answers = await Promise.all([visit(url, 'POST'), visit(url, 'POST')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 403]);
    expect(answers.find((a) => a.status === 200)!.html).toContain('You are verified.');
    expect(answers.find((a) => a.status === 403)!.html).toContain(REFUSED);
    expect(ok(await service.call('GET', `${VE}/entries/${verifierId}`, { query: { guild_id: guild } })).entry.is_verified).toBe(true);
    expect(await sandboxOf(service).roles(guild, member)).toEqual([role]);
  });

  it('answer every other failure as a page with its status: too large, switched off, a refused role', async () => {
    const { guild, channel, role } = await webGuild();
    const member = snowflake();
    const { url, verifierId } = await linkFor(guild, channel, member);

    const large = await visit(url, 'POST', 'x'.repeat(70_000));
    expect(large.status).toBe(413);
    expect(large.html).toContain('too large');

    await sandboxOf(service).forbidRole(guild, role);
    const refusedRole = await visit(url, 'POST');
    expect(refusedRole.status).toBe(502);
    expect(refusedRole.html).toContain('not verified yet');
    expect(refusedRole.html).toContain(role);
    await sandboxOf(service).allowRole(guild, role);

    ok(await service.call('POST', `${VE}/disable`, { body: { guild_id: guild } }));
    const off = await visit(url, 'POST');
    expect(off.status).toBe(409);
    expect(off.html).toContain('switched off');
    ok(await service.call('POST', `${VE}/enable`, { body: { guild_id: guild } }));

    // Another method on the link's path (the router's 405) is a page too, listing the methods it takes.
    for (const method of ['PUT', 'DELETE', 'PATCH'] as const) {
      const res = await fetch(url, { method, body: method === 'DELETE' ? undefined : '{}' });
      expect(res.headers.get('allow')).toBe('GET, POST');
      const notAllowed = await visit(url, method, method === 'DELETE' ? undefined : '{}');
      expect(notAllowed.status).toBe(405);
      expect(notAllowed.html).toContain(`does not take ${method}`);
    }

    // None of those used the link up.
    await expectVerifies(url, guild, verifierId, member, role);
  });
});
