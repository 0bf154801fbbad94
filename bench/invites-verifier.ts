/**
 * Invite tracker and verifier benchmark (`npx tsx bench/invites-verifier.ts`;
 * `runInvitesVerifierBench()` for the main runner): platform calls and
 * DynamoDB requests per join check; 50 joins at once through 5 invites (the
 * share attributed exactly, and increments claimed twice: must be 0);
 * requests and platform calls per verification of each type; the web page's
 * weight. Figures, not tests.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type LocalService, startLocal } from '#infra/local/start.js';
import { countDynamoRequests, ofGuild, snowflakes, succeed } from './requests.js';
import { type Row, printRows } from './table.js';

const snowflake = snowflakes(7234567890000000000n);

/** Counts DynamoDB requests and platform calls of one piece of work. */
async function counted<T>(service: LocalService, work: () => Promise<T>): Promise<{ result: T; requests: number; platform: number }> {
  const sandbox = service.sandboxUrl!.replace(/\/api\/v10$/, '');
  await fetch(`${sandbox}/_sandbox/requests`, { method: 'DELETE' });
  const counter = countDynamoRequests();
  const result = await work();
  const { requests } = counter.take();
  counter.stop();
  const platform = ((await (await fetch(`${sandbox}/_sandbox/requests`)).json()) as unknown[]).length;
  return { result, requests, platform };
}

async function invites(service: LocalService): Promise<Row[]> {
  const sandbox = service.sandboxUrl!.replace(/\/api\/v10$/, '');
  const control = (path: string, body: unknown = {}, method = 'POST') =>
    fetch(`${sandbox}/_sandbox${path}`, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const guild = snowflake();
  const channel = snowflake();
  await control(`/channels/${channel}`, { guild_id: guild }, 'PUT');
  await succeed(service, 'POST', '/modules/invite-tracker/enable', { guild_id: guild });
  const codes: string[] = [];
  for (let i = 0; i < 5; i++)
    codes.push(
      (
        await succeed(
          service,
          'POST',
          '/modules/invite-tracker/invites',
          { guild_id: guild, channel_id: channel, max_uses: 0, max_age: 0, is_temporary: false },
          { 'x-acting-user-id': snowflake() },
        )
      ).invite_code,
    );
  const one = snowflake();
  await control(`/guilds/${guild}/members/${one}/join-via-invite/${codes[0]}`);
  const single = await counted(service, () =>
    succeed(service, 'POST', '/modules/invite-tracker/events/join/check-invite', { guild_id: guild }, { 'x-acting-user-id': one }),
  );

  const members = Array.from({ length: 50 }, snowflake);
  for (const [i, m] of members.entries()) await control(`/guilds/${guild}/members/${m}/join-via-invite/${codes[i % 5]}`);
  await Promise.all(
    members.map((m) => succeed(service, 'POST', '/modules/invite-tracker/events/join/check-invite', { guild_id: guild }, { 'x-acting-user-id': m })),
  );
  const snapshot = await succeed(service, 'POST', '/modules/invite-tracker/disable', { guild_id: guild });
  const uses = (snapshot.stats_uses as { attribution: string }[]).slice(0, 50);
  const exact = uses.filter((u) => u.attribution === 'exact').length;
  const platformUses = (
    (await (await fetch(`${service.sandboxUrl}/guilds/${guild}/invites`, { headers: { authorization: 'Bot x' } })).json()) as { code: string; uses: number }[]
  ).reduce((n, i) => n + i.uses, 0);
  const claimed = (snapshot.invites as { current_uses: number }[]).reduce((n, i) => n + i.current_uses, 0);
  return [
    {
      section: 'invite-tracker',
      measure: 'one join check (exact): DynamoDB requests / platform calls',
      value: `${single.requests} (floor 3) / ${single.platform} (floor 2)`,
      note: "platform, at once: the member (their joined_at is the join) and the guild invites; the vanity URL only when no invite explains the join; table: state with the member's pointer, recorded invites, the use with its increment and the pointer in one transaction (floor: the two reads, the transaction), and the process's first join its block of 100 ids",
    },
    {
      section: 'invite-tracker',
      measure: '50 joins at once through 5 invites: attributed exact',
      value: `${Math.round((exact / 50) * 100)}%`,
      note: `${exact} exact, ${50 - exact} ambiguous (several invites had unclaimed uses when checked); none guessed`,
    },
    {
      section: 'invite-tracker',
      measure: 'increments claimed twice',
      value: String(claimed - platformUses),
      note: `${claimed} claimed for ${platformUses} uses on the platform (must be 0)`,
    },
  ];
}

async function verifications(service: LocalService): Promise<Row[]> {
  const rows: Row[] = [];
  for (const type of [1, 2, 3]) {
    const guild = snowflake();
    const member = snowflake();
    const channel = snowflake();
    const role = snowflake();
    await ofGuild(service, guild, { channels: [channel], roles: [role] });
    await succeed(service, 'POST', '/modules/verifier/enable', { guild_id: guild });
    await succeed(service, 'PUT', '/modules/verifier/settings', {
      guild_id: guild,
      verifier_type: type,
      verifier_channel: channel,
      verifier_verified_role_ids: [role],
      ...(type === 2 ? { verifier_passphrase: 'bench' } : {}),
    });
    const created = await counted(service, () =>
      succeed(service, 'POST', '/modules/verifier/event/create-verification', { guild_id: guild, requester: member }, { 'x-acting-user-id': member }),
    );
    const id = (created.result as { verifier_id: string }).verifier_id;
    let answered;
    if (type === 3) {
      const messages = (await (await fetch(`${service.sandboxUrl}/channels/${channel}/messages`, { headers: { authorization: 'Bot x' } })).json()) as {
        components: { components: { url: string }[] }[];
      }[];
      const url = messages[0]!.components[0]!.components[0]!.url;
      const page = await (await fetch(url)).text();
      rows.push({
        section: 'verifier',
        measure: 'the web page: bytes, outside requests',
        value: `${Buffer.byteLength(page)} B, ${(page.match(/(src|href)="https?:/g) ?? []).length}`,
        note: 'aim under 10 KiB; no script, no outside asset',
      });
      answered = await counted(service, () => fetch(url, { method: 'POST' }).then((r) => r.text()));
    } else {
      answered = await counted(service, () =>
        succeed(
          service,
          'POST',
          '/modules/verifier/event/handle-verification',
          {
            verifier_id: id,
            ...(type === 2
              ? { interaction_type: 'ModalInteraction', passphrase_value: 'bench' }
              : { interaction_id: snowflake(), token: 'bench', interaction_type: 'ComponentInteraction' }),
          },
          { 'x-acting-user-id': member },
        ),
      );
    }
    rows.push({
      section: 'verifier',
      measure: `type ${type}: create + answer, DynamoDB requests / platform calls`,
      value: `${created.requests}+${answered.requests} (floor 2+2) / ${created.platform}+${answered.platform}`,
      note:
        type === 1
          ? 'floor: one read that decides and one write each; create: state with the member pointer, an id, entry and pointers written at once; answer: the ID pointer, then entry and state in one batch read, the verified write; platform: the prompt; the role, the callback (the member is read only when a text uses <user_name>)'
          : type === 2
            ? 'the modal answer; the click before it asks with one callback'
            : 'the page POST; its GET reads the same two',
    });
  }
  return rows;
}

export async function runInvitesVerifierBench(): Promise<Row[]> {
  // No in-process producers: their polling of the due index would count as requests of the work measured.
  const service = await startLocal({ port: 0, dataDir: null, printLogs: false, jobs: false });
  try {
    return [...(await invites(service)), ...(await verifications(service))];
  } finally {
    await service.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  printRows(await runInvitesVerifierBench());
}
