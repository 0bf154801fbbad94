import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '#shared/db/client.js';
import { tableName } from '#shared/db/table.js';
import { type TestService, errorOf, snowflake, startTestService } from '#test/helpers/local.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

async function mintKey(guildId: string, name: string | null = 'dashboard') {
  const res = await service.call('POST', '/auth/api-key', { body: { guild_id: guildId, name } });
  expect(res.status).toBe(200);
  return res.body.data.api_key as { id: number; key_id: string; guild_id: string; name: string; created_at: string; last_use: string | null; secret: string };
}

describe('credentials', () => {
  it('answers 401 without credentials or with unknown ones, in the envelope', async () => {
    const guild = snowflake();
    for (const token of [null, 'nonsense', `gmk.${guild}.AAAAAAAAAAAAAAAAAAAAAA.wrong`]) {
      const res = await service.call('GET', '/modules/polls/status', { token, query: { guild_id: guild } });
      expect(res.status).toBe(401);
      expect(errorOf(res).name).toBe('UnauthorizedError');
      expect(errorOf(res).message).toMatch(/^Unauthorized! Send 'Authorization: Bearer <token>'/);
    }
    const basic = await service.call('GET', '/modules/polls/status', { token: null, headers: { authorization: 'Basic abc' }, query: { guild_id: guild } });
    expect(basic.status).toBe(401);
  });

  it('lets the service token call everything', async () => {
    const guild = snowflake();
    expect((await service.call('GET', '/modules/polls/status', { query: { guild_id: guild } })).status).toBe(200);
    expect((await service.call('GET', '/auth/api-key', { query: { guild_id: guild } })).status).toBe(200);
  });
});

describe('guild API keys', () => {
  it('mints a key whose secret is shown once and stored only as a hash', async () => {
    const guild = snowflake();
    const key = await mintKey(guild);
    expect(key).toMatchObject({ guild_id: guild, name: 'dashboard', last_use: null });
    expect(key.secret.startsWith(`gmk.${guild}.${key.key_id}.`)).toBe(true);
    expect(Number.isSafeInteger(key.id) && key.id > 0).toBe(true);
    const listed = await service.call('GET', '/auth/api-key', { query: { guild_id: guild } });
    expect(listed.body.data.api_keys).toEqual([
      { id: key.id, key_id: key.key_id, guild_id: guild, name: 'dashboard', created_at: key.created_at, last_use: null },
    ]);
    const { Items } = await db().send(new ScanCommand({ TableName: tableName() }));
    const secretPart = key.secret.split('.')[3]!;
    expect(JSON.stringify(Items)).not.toContain(secretPart);
  });

  it('keeps a keyed mint for its repeat sealed: neither the secret nor the Idempotency-Key is readable in the table', async () => {
    const guild = snowflake();
    const idempotencyKey = `mint:${guild}:dashboard`;
    const mint = () => service.call('POST', '/auth/api-key', { body: { guild_id: guild, name: 'dashboard' }, headers: { 'Idempotency-Key': idempotencyKey } });
    const first = await mint();
    expect(first.status).toBe(200);
    const secret = first.body.data.api_key.secret as string;
    // Binary attributes as their bytes, so a secret stored as bytes would be found too.
    const { Items = [] } = await db().send(new ScanCommand({ TableName: tableName() }));
    const stored = JSON.stringify(Items, (_name, value) => (value instanceof Uint8Array ? Buffer.from(value).toString('latin1') : value));
    expect(stored).not.toContain(secret.split('.')[3]!);
    expect(stored).not.toContain(idempotencyKey);
    expect(stored).toContain('idempotency_key');
    const again = await mint();
    expect({ status: again.status, replayed: again.headers.get('idempotent-replayed'), secret: again.body.data.api_key.secret }).toEqual({
      status: 200,
      replayed: 'true',
      secret,
    });
    const listed = await service.call('GET', '/auth/api-key', { query: { guild_id: guild } });
    expect(listed.body.data.api_keys).toHaveLength(1);
  });

  it('works for its own guild, records its last use, and is refused for another guild (403)', async () => {
    const guild = snowflake();
    const key = await mintKey(guild);
    const own = await service.call('POST', '/modules/tags/enable', { token: key.secret, body: { guild_id: guild } });
    expect(own.status).toBe(200);
    const other = await service.call('POST', '/modules/tags/enable', { token: key.secret, body: { guild_id: snowflake() } });
    expect(other.status).toBe(403);
    expect(errorOf(other).message).toContain(`belongs to guild ${guild}`);
    const listed = await service.call('GET', '/auth/api-key', { query: { guild_id: guild } });
    expect(Date.parse(listed.body.data.api_keys[0].last_use)).toBeGreaterThan(Date.parse(key.created_at) - 1000);
  });

  it('is refused on internal operations with 403, before the body is read', async () => {
    const guild = snowflake();
    const key = await mintKey(guild);
    const res = await service.call('POST', '/auth/api-key', { token: key.secret, rawBody: 'not json' });
    expect(res.status).toBe(403);
    expect(errorOf(res).message).toBe('Forbidden! This operation is internal: only the service (bot) token may call it, not a guild API key.');
  });

  it('stops working at once when revoked', async () => {
    const guild = snowflake();
    const key = await mintKey(guild, null);
    expect((await service.call('GET', '/modules/polls/status', { token: key.secret, query: { guild_id: guild } })).status).toBe(200);
    const revoked = await service.call('DELETE', '/auth/api-key', { body: { guild_id: guild, key_id: key.key_id } });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.api_key).toMatchObject({ key_id: key.key_id, guild_id: guild, name: null });
    expect(revoked.body.data.api_key.secret).toBeUndefined();
    const after = await service.call('GET', '/modules/polls/status', { token: key.secret, query: { guild_id: guild } });
    expect(after.status).toBe(401);
    const again = await service.call('DELETE', '/auth/api-key', { body: { guild_id: guild, key_id: key.key_id } });
    expect(again.status).toBe(404);
    expect((await service.call('GET', '/auth/api-key', { query: { guild_id: guild } })).body.data.api_keys).toEqual([]);
  });

  it("answers one key by its ID, with its last use and never its secret; another guild's or a revoked one is a 404", async () => {
    const guild = snowflake();
    const key = await mintKey(guild, 'status board');
    const used = await service.call('GET', '/modules/polls/status', { token: key.secret, query: { guild_id: guild } });
    expect(used.status).toBe(200);
    const path = `/auth/api-key/${key.key_id}`;
    const one = await service.call('GET', path, { query: { guild_id: guild } });
    expect(one.status).toBe(200);
    const { secret: _secret, ...record } = key;
    expect(one.body.data.api_key).toEqual({ ...record, last_use: expect.any(String) });
    expect(Date.parse(one.body.data.api_key.last_use)).toBeGreaterThan(Date.parse(key.created_at) - 1000);
    expect(JSON.stringify(one.body)).not.toContain(key.secret.split('.')[3]!);

    const elsewhere = await service.call('GET', path, { query: { guild_id: snowflake() } });
    expect(elsewhere.status).toBe(404);
    expect(errorOf(elsewhere).message).toContain(`has no API key '${key.key_id}'`);
    expect((await service.call('GET', path, { token: key.secret, query: { guild_id: guild } })).status).toBe(403);
    expect((await service.call('GET', path, {})).status).toBe(400);

    expect((await service.call('DELETE', '/auth/api-key', { body: { guild_id: guild, key_id: key.key_id } })).status).toBe(200);
    expect((await service.call('GET', path, { query: { guild_id: guild } })).status).toBe(404);
  });

  it('validates its inputs: guild_id shape (400) and name length (422)', async () => {
    expect((await service.call('POST', '/auth/api-key', { looseBody: { name: 'x' } })).status).toBe(400);
    const long = await service.call('POST', '/auth/api-key', { body: { guild_id: snowflake(), name: 'x'.repeat(101) } });
    expect(long.status).toBe(422);
    expect(errorOf(long).message).toBe("Unprocessable Entity! Field 'name' must be at most 100 characters.");
    expect((await service.call('GET', '/auth/api-key', {})).status).toBe(400);
  });
});

describe('the order of checks', () => {
  it('answers 413 before 401, 401 before 400, 400 before the guild scope (403), the scope before module state (409)', async () => {
    const huge = await service.call('POST', '/modules/polls/enable', { token: null, rawBody: JSON.stringify({ pad: 'x'.repeat(70_000) }) });
    expect(huge.status).toBe(413);
    expect(errorOf(huge).name).toBe('PayloadTooLargeError');
    expect((await service.call('POST', '/modules/polls/enable', { token: null, rawBody: '{' })).status).toBe(401);
    const guild = snowflake();
    const key = await mintKey(guild);
    const shape = await service.call('POST', '/modules/polls/enable', { token: key.secret, body: { guild_id: 'x' } });
    expect(shape.status).toBe(400);
    const scope = await service.call('POST', '/modules/polls/disable', { token: key.secret, body: { guild_id: snowflake() } });
    expect(scope.status).toBe(403);
    // A never-seen guild's module is disabled: disabling it is the 409 that follows valid input.
    const state = await service.call('POST', '/modules/polls/disable', { token: key.secret, body: { guild_id: guild } });
    expect(state.status).toBe(409);
  });
});
