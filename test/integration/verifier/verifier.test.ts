/** The verifier: prompts of three types, a click, a passphrase in a modal with a lockout, and the web page. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Message } from '#test/helpers/sandbox.js';
import { errorOf, ok, snowflake, startTestService, type TestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { membersOf } from '../welcoming/members-sandbox.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

const VE = '/modules/verifier';

async function control(path: string): Promise<any> {
  const origin = service.sandboxUrl!.replace(/\/api\/v10$/, '');
  return (await fetch(`${origin}/_sandbox${path}`)).json();
}

/** A guild with the verifier on, set as given, with a prompt channel. */
async function verifierGuild(settings: Record<string, unknown> = {}): Promise<{ guild: string; channel: string; role: string }> {
  const guild = snowflake();
  const channel = await sandboxOf(service).channelIn(guild);
  const role = await sandboxOf(service).roleIn(guild);
  ok(await service.call('POST', `${VE}/enable`, { body: { guild_id: guild } }));
  ok(await service.call('PUT', `${VE}/settings`, { body: { guild_id: guild, verifier_channel: channel, verifier_verified_role_ids: [role], ...settings } }));
  return { guild, channel, role };
}

const create = (guild: string, member: string) =>
  service.call('POST', `${VE}/event/create-verification`, { body: { guild_id: guild, requester: member }, headers: { 'x-acting-user-id': member } });
const handle = (member: string, body: Record<string, unknown>) =>
  service.call('POST', `${VE}/event/handle-verification`, { looseBody: body, headers: { 'x-acting-user-id': member } });
const entry = async (guild: string, verifierId: string) => ok(await service.call('GET', `${VE}/entries/${verifierId}`, { query: { guild_id: guild } })).entry;
const prompt = async (channel: string): Promise<Message> => (await membersOf(service).api<Message[]>(`/channels/${channel}/messages`)).body[0]!;

describe('verifier', () => {
  it('has the defaults of the contract', async () => {
    const guild = snowflake();
    const settings = ok(await service.call('POST', `${VE}/enable`, { body: { guild_id: guild } })).settings;
    expect(settings).toMatchObject({
      verifier_type: 1,
      verifier_verified_role_ids: '',
      verifier_message_content: 'Press the button below to verify.',
      verifier_message_content_completed: 'You are verified.',
      verifier_channel: null,
      verifier_passphrase: null,
    });
  });

  it('verifies a member with a click: the prompt, the roles, the fields and the ephemeral answer', async () => {
    const { guild, channel, role } = await verifierGuild();
    const member = snowflake();
    const created = ok(await create(guild, member));
    const message = await prompt(channel);
    expect(message.content).toBe('Press the button below to verify.');
    expect(message.components![0]!.components[0]).toMatchObject({ label: 'Verify', custom_id: `verifier:click:${created.verifier_id}` });
    expect(await entry(guild, created.verifier_id)).toMatchObject({
      user_id: member,
      requester_id: member,
      is_verified: false,
      verify_channel_id: channel,
      verify_message_id: message.id,
      failed_attempts: 0,
      verified_at: null,
    });

    const interaction = snowflake();
    ok(await handle(member, { verifier_id: created.verifier_id, interaction_id: interaction, token: 'tok-1', interaction_type: 'ComponentInteraction' }));
    expect(await sandboxOf(service).roles(guild, member)).toEqual([role]);
    const stored = await entry(guild, created.verifier_id);
    expect(stored.is_verified).toBe(true);
    expect(stored.verified_at).not.toBeNull();
    const callbacks = (await control('/interactions')) as { interaction_id: string; type: number; data: { content: string; flags: number } }[];
    expect(callbacks.find((c) => c.interaction_id === interaction)).toMatchObject({ type: 4, data: { content: 'You are verified.', flags: 64 } });

    const again = await handle(member, { verifier_id: created.verifier_id, interaction_type: 'ComponentInteraction' });
    expect(again.status).toBe(422);
    expect(errorOf(again).message).toContain('already verified');
  });

  it("lets only the entry's own member answer, and refuses a role the platform refuses without verifying", async () => {
    const { guild, role } = await verifierGuild();
    const member = snowflake();
    const { verifier_id } = ok(await create(guild, member));
    expect((await handle(snowflake(), { verifier_id })).status).toBe(403);
    await sandboxOf(service).forbidRole(guild, role);
    const refused = await handle(member, { verifier_id });
    expect(refused.status).toBe(502);
    expect(errorOf(refused).message).toContain(role);
    expect((await entry(guild, verifier_id)).is_verified).toBe(false);
    await sandboxOf(service).allowRole(guild, role);
    ok(await handle(member, { verifier_id }));
  });

  it('asks for the passphrase in a modal, counts wrong ones, and locks out after five', async () => {
    const { guild } = await verifierGuild({ verifier_type: 2, verifier_passphrase: 'open sesame' });
    const member = snowflake();
    const { verifier_id } = ok(await create(guild, member));
    const click = snowflake();
    ok(await handle(member, { verifier_id, interaction_id: click, token: 'tok-2', interaction_type: 'ComponentInteraction' }));
    const modal = ((await control('/interactions')) as { interaction_id: string; type: number; data: { custom_id: string } }[]).find(
      (c) => c.interaction_id === click,
    );
    expect(modal).toMatchObject({ type: 9, data: { custom_id: `verifier:modal:${verifier_id}` } });

    const answer = (value: string) => handle(member, { verifier_id, interaction_type: 'ModalInteraction', passphrase_value: value });
    const wrong = await Promise.all(Array.from({ length: 5 }, () => answer('wrong')));
    expect(wrong.every((r) => r.status === 422)).toBe(true);
    expect((await entry(guild, verifier_id)).failed_attempts).toBe(5);
    const locked = await answer('open sesame');
    expect(locked.status).toBe(422);
    expect(errorOf(locked).message).toContain('Too many wrong passphrases');
    expect((await entry(guild, verifier_id)).is_verified).toBe(false);

    // Ten minutes later (the clock moved forward) the right passphrase is taken.
    const origin = service.sandboxUrl!.replace(/\/api\/v10$/, '');
    await fetch(`${origin}/_sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance_ms: 10 * 60 * 1000 + 1000 }),
    });
    ok(await answer('open sesame'));
    expect((await entry(guild, verifier_id)).is_verified).toBe(true);
  });

  it("refuses another entry's token, and a passphrase far too long, changing nothing", async () => {
    const { guild, channel } = await verifierGuild({ verifier_type: 3 });
    const [a, b] = [snowflake(), snowflake()];
    ok(await create(guild, a));
    const linkA = new URL((await prompt(channel)).components![0]!.components[0]!.url!);
    const other = ok(await create(guild, b));
    const crossed = await fetch(`${linkA.origin}/modules/verifier/web/${other.verifier_id}${linkA.search}`, { method: 'POST' });
    expect(crossed.status).toBe(403);
    expect((await entry(guild, other.verifier_id)).is_verified).toBe(false);
    const { guild: g2 } = await verifierGuild({ verifier_type: 2, verifier_passphrase: 'x' });
    const member = snowflake();
    const { verifier_id } = ok(await create(g2, member));
    const huge = await handle(member, { verifier_id, interaction_type: 'ModalInteraction', passphrase_value: 'p'.repeat(70_000) });
    expect(huge.status).toBe(413);
    const long = await handle(member, { verifier_id, interaction_type: 'ModalInteraction', passphrase_value: 'p'.repeat(101) });
    expect(long.status).toBe(422);
    expect((await entry(g2, verifier_id)).failed_attempts).toBe(0);
  });

  it('verifies with the right passphrase', async () => {
    const { guild } = await verifierGuild({ verifier_type: 2, verifier_passphrase: 'open sesame' });
    const member = snowflake();
    const { verifier_id } = ok(await create(guild, member));
    expect((await handle(member, { verifier_id, interaction_type: 'ModalInteraction', passphrase_value: 'open sesam' })).status).toBe(422);
    ok(await handle(member, { verifier_id, interaction_type: 'ModalInteraction', passphrase_value: 'open sesame' }));
    expect((await entry(guild, verifier_id)).is_verified).toBe(true);
  });

  it('refuses type 2 without a passphrase, and bad settings', async () => {
    const { guild } = await verifierGuild();
    const res = await service.call('PUT', `${VE}/settings`, { body: { guild_id: guild, verifier_type: 2 } });
    expect(res.status).toBe(422);
    expect(errorOf(res).message).toContain('verifier_passphrase');
    expect((await service.call('PUT', `${VE}/settings`, { looseBody: { guild_id: guild, verifier_type: 4 } })).status).toBe(422);
    expect((await service.call('PUT', `${VE}/settings`, { looseBody: { guild_id: guild, verifier_type: '1' } })).status).toBe(400);
    expect((await service.call('PUT', `${VE}/settings`, { body: { guild_id: guild, verifier_message_content: 'x'.repeat(2001) } })).status).toBe(422);
  });

  it('sends the prompt as a DM when no channel is set, and reuses an open entry', async () => {
    const { guild } = await verifierGuild({ verifier_channel: '' });
    const member = snowflake();
    const first = ok(await create(guild, member));
    const second = ok(await create(guild, member));
    expect(second.verifier_id).toBe(first.verifier_id);
    expect(second.message).toContain('sent again');
    const stored = await entry(guild, first.verifier_id);
    const dm = (await membersOf(service).api<Message[]>(`/channels/${stored.verify_channel_id}/messages`)).body;
    expect(dm).toHaveLength(2);
  });

  it('serves a web page for type 3 whose one-time token is the credential', async () => {
    const { guild, channel, role } = await verifierGuild({ verifier_type: 3 });
    const member = snowflake();
    const { verifier_id } = ok(await create(guild, member));
    const button = (await prompt(channel)).components![0]!.components[0]!;
    expect(button.style).toBe(5);
    const url = new URL(button.url!);
    expect(url.pathname).toBe(`/modules/verifier/web/${verifier_id}`);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('<form method="post"');
    expect(html).not.toMatch(/<script|https?:\/\/(?!127\.0\.0\.1)/);

    const wrong = await fetch(`${url.origin}${url.pathname}?token=not-it`);
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).toContain('This link does not work');

    const done = await fetch(url, { method: 'POST' });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('You are verified.');
    expect(await sandboxOf(service).roles(guild, member)).toEqual([role]);
    expect((await fetch(url, { method: 'POST' })).status).toBe(403);
    expect((await fetch(url)).status).toBe(403);
    // Type 3 is answered on the page, not through the bot.
    const member2 = snowflake();
    const other = ok(await create(guild, member2));
    expect((await handle(member2, { verifier_id: other.verifier_id })).status).toBe(422);
  });

  it('pages the entries by key, newest first, at most limit a page', async () => {
    const { guild } = await verifierGuild();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push(ok(await create(guild, snowflake())).verifier_id);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const data = ok(await service.call('GET', `${VE}/entries`, { query: { guild_id: guild, limit: 2, ...(cursor ? { cursor } : {}) } }));
      expect(data.entries.length).toBeLessThanOrEqual(2);
      seen.push(...data.entries.map((e: { verifier_id: string }) => e.verifier_id));
      cursor = data.next_cursor ?? undefined;
      pages++;
    } while (cursor);
    expect(seen).toEqual([...made].reverse());
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(ok(await service.call('GET', `${VE}/entries`, { query: { guild_id: guild } })).next_cursor).toBeNull();
  });

  it('keeps to its guild and module state, lists entries, deletes with its settings and answers privacy', async () => {
    const { guild } = await verifierGuild();
    const member = snowflake();
    const { verifier_id } = ok(await create(guild, member));
    expect(ok(await service.call('GET', `${VE}/entries`, { query: { guild_id: guild } })).entries.map((e: { verifier_id: string }) => e.verifier_id)).toEqual([
      verifier_id,
    ]);
    const key = ok(await service.call('POST', '/auth/api-key', { body: { guild_id: guild } })).api_key.secret;
    expect(
      (
        await service.call('POST', `${VE}/event/create-verification`, {
          token: key,
          body: { guild_id: guild, requester: member },
          headers: { 'x-acting-user-id': member },
        })
      ).status,
    ).toBe(403);
    expect((await service.call('GET', `${VE}/entries`, { token: key, query: { guild_id: snowflake() } })).status).toBe(403);
    expect((await service.call('POST', `${VE}/event/create-verification`, { body: { guild_id: guild, requester: member } })).status).toBe(400);
    const query = { guild_id: guild, privacy_member_id: member };
    expect(ok(await service.call('GET', `${VE}/privacy/get-user-entries`, { query })).id).toBe(1);
    ok(await service.call('DELETE', `${VE}/privacy/delete-user-entries`, { body: query }));
    expect(ok(await service.call('GET', `${VE}/privacy/get-user-entries`, { query })).id).toBe(0);
    ok(await create(guild, member));
    ok(await service.call('POST', `${VE}/disable`, { body: { guild_id: guild } }));
    expect((await create(guild, snowflake())).status).toBe(409);
    const deleted = ok(await service.call('DELETE', `${VE}/settings`, { body: { guild_id: guild } }));
    expect(deleted.entries).toHaveLength(1);
  });
});

describe('create-verification', () => {
  /** A guild with the verifier on and a prompt channel and role the sandbox knows are the guild's. */
  async function ownGuild(): Promise<{ guild: string; channel: string }> {
    const guild = snowflake();
    const channel = await sandboxOf(service).channelIn(guild);
    const role = await sandboxOf(service).roleIn(guild);
    ok(await service.call('POST', `${VE}/enable`, { body: { guild_id: guild } }));
    ok(await service.call('PUT', `${VE}/settings`, { body: { guild_id: guild, verifier_channel: channel, verifier_verified_role_ids: [role] } }));
    return { guild, channel };
  }
  const promptsIn = async (channel: string) => (await membersOf(service).api<Message[]>(`/channels/${channel}/messages`)).body;
  const entriesOf = async (guild: string) =>
    ok(await service.call('GET', `${VE}/entries`, { query: { guild_id: guild } })).entries as { verifier_id: string; user_id: string; requester_id: string }[];

  it('needs a requester: without one (or null) a 400 naming it, and nothing stored or posted', async () => {
    const { guild, channel } = await ownGuild();
    const member = snowflake();
    for (const body of [{ guild_id: guild }, { guild_id: guild, requester: null }]) {
      const res = await service.call('POST', `${VE}/event/create-verification`, { looseBody: body, headers: { 'x-acting-user-id': member } });
      expect(res.status).toBe(400);
      expect(errorOf(res)).toMatchObject({ name: 'BadRequestError' });
      expect(errorOf(res).message).toContain("Field 'requester'");
    }
    expect(await entriesOf(guild)).toEqual([]);
    expect(await promptsIn(channel)).toEqual([]);
    const admin = snowflake();
    const created = ok(
      await service.call('POST', `${VE}/event/create-verification`, { body: { guild_id: guild, requester: admin }, headers: { 'x-acting-user-id': member } }),
    );
    expect(await entry(guild, created.verifier_id)).toMatchObject({ user_id: member, requester_id: admin });
  });

  it('ends five calls at once for one member with one entry and one prompt', async () => {
    const { guild, channel } = await ownGuild();
    const member = snowflake();
    // The prompt that goes out first is held (a slow 429, then the retry), so the five are at once however slow the machine:
    // none may start after the first has answered, which would rightly send the prompt again.
    await sandboxOf(service).fault({ method: 'POST', path: `^/channels/${channel}/messages$`, status: 429, retry_after: 0.5, delay_ms: 2500 });
    const answers = await Promise.all(Array.from({ length: 5 }, () => create(guild, member)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const entries = await entriesOf(guild);
    expect(entries).toHaveLength(1);
    expect(new Set(answers.map((a) => a.body.data.verifier_id))).toEqual(new Set([entries[0]!.verifier_id]));
    const prompts = await promptsIn(channel);
    expect(prompts).toHaveLength(1);
    expect(prompts[0]!.components![0]!.components[0]!.custom_id).toBe(`verifier:click:${entries[0]!.verifier_id}`);
    // Asked again once those have answered, the open entry is reused and its prompt sent again.
    const again = ok(await create(guild, member));
    expect(again.verifier_id).toBe(entries[0]!.verifier_id);
    expect(await entriesOf(guild)).toHaveLength(1);
    expect(await promptsIn(channel)).toHaveLength(2);
  });

  it('sends the prompt again for a call made right after the first answered: two prompts, one entry (contract 16)', async () => {
    const { guild, channel } = await ownGuild();
    const member = snowflake();
    const first = ok(await create(guild, member));
    expect(first.message).toContain('was sent to member');
    const second = ok(await create(guild, member));
    expect(second.verifier_id).toBe(first.verifier_id);
    expect(second.message).toContain('was sent again to member');
    const prompts = await promptsIn(channel);
    expect(prompts).toHaveLength(2);
    for (const posted of prompts) expect(posted.components![0]!.components[0]!.custom_id).toBe(`verifier:click:${first.verifier_id}`);
    expect((await entriesOf(guild)).map((e) => e.verifier_id)).toEqual([first.verifier_id]);
  });

  it('sends one more prompt for two calls at once after an answered one, keeping the one entry (contract 16)', async () => {
    const { guild, channel } = await ownGuild();
    const member = snowflake();
    const first = ok(await create(guild, member));
    // The next prompt's post is held a moment (a rate limit), so the two calls are surely at once.
    await sandboxOf(service).fault({ method: 'POST', path: `^/channels/${channel}/messages$`, status: 429, retry_after: 0.3, delay_ms: 300 });
    const answers = (await Promise.all([create(guild, member), create(guild, member)])).map(ok);
    expect(answers.map((a) => a.verifier_id)).toEqual([first.verifier_id, first.verifier_id]);
    expect(answers.filter((a) => a.message.includes('was sent again'))).toHaveLength(1);
    expect(answers.filter((a) => a.message.includes('made at the same time'))).toHaveLength(1);
    expect(await promptsIn(channel)).toHaveLength(2);
    expect((await entriesOf(guild)).map((e) => e.verifier_id)).toEqual([first.verifier_id]);
  });

  it('leaves nothing behind when the prompt cannot be posted, so the retry makes the one entry', async () => {
    const { guild, channel } = await ownGuild();
    const member = snowflake();
    await sandboxOf(service).fault({ method: 'POST', path: `^/channels/${channel}/messages$`, status: 502, times: 3 });
    expect((await create(guild, member)).status).toBe(502);
    expect(await entriesOf(guild)).toEqual([]);
    const created = ok(await create(guild, member));
    expect((await entriesOf(guild)).map((e) => e.verifier_id)).toEqual([created.verifier_id]);
    expect(await promptsIn(channel)).toHaveLength(1);
  });
});
