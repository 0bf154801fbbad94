import { createHash } from 'node:crypto';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { handler as authorizer } from '#functions/auth/authorizer.js';
import { createApiKey, revokeApiKey } from '#shared/auth/api-keys.js';
import { startSession } from '#shared/auth/session.js';
import { GUILD_USAGE_KEY_TAG } from '#shared/auth/usage-keys.js';
import { observe } from '#test/helpers/observe.js';

/**
 * Fair use in AWS: the authorizer names each caller's usage-plan key, and a
 * guild key gets its API Gateway key on the guild-key plan. API Gateway's
 * management API is answered by a fake fetch (nothing leaves the process).
 */
const dynamo = mockClient(DynamoDBDocumentClient);
const API_ID = 'a1b2c3d4e5';
const PLAN_ID = 'plan42';
const GUILD = '1234567890123456789';
const KEY_ID = 'AAAAAAAAAAAAAAAAAAAAAA';
const SECRET = 's3cret-with-enough-entropy';
const TOKEN = `Bearer gmk.${GUILD}.${KEY_ID}.${SECRET}`;
const guildUsageKey = `${API_ID}guildkey${Buffer.from(KEY_ID).toString('hex')}`;
/** An expression with its generated names and values written out (`#n0` as `pk`, `:v0` as `"k-123"`). */
function spelled(expression: string | undefined, names: Record<string, string> = {}, values: Record<string, unknown> = {}): string | undefined {
  return expression?.replace(/#n\d+|:v\d+/g, (p) => (p.startsWith('#') ? (names[p] ?? p) : JSON.stringify(values[p])));
}

/** The updates that recorded an API Gateway key's ID on a guild key's item: the key, and the change and condition spelled out. */
function usageKeyWrites() {
  return dynamo
    .commandCalls(UpdateCommand)
    .map((c) => c.args[0].input)
    .filter((input) => Object.values(input.ExpressionAttributeNames ?? {}).includes('usage_key_id'))
    .map((input) => ({
      Key: input.Key,
      update: spelled(input.UpdateExpression, input.ExpressionAttributeNames, input.ExpressionAttributeValues),
      condition: spelled(input.ConditionExpression, input.ExpressionAttributeNames, input.ExpressionAttributeValues),
    }));
}

const keyItem = {
  pk: `G#${GUILD}`,
  sk: `APIKEY#${KEY_ID}`,
  secret_hash: createHash('sha256').update(SECRET).digest('hex'),
  last_use: new Date().toISOString(),
};

/**
 * API Gateway as the management API answers, and SSM with the guild-key plan's ID; each request is recorded as
 * `METHOD path?query` (SSM's as `SSM <target> <name>`) with its body. `keys` holds the API keys by value, `planKeys`
 * the values of those on the guild-key plan.
 */
let gateway: { calls: { call: string; body: any; authorization: string }[]; keys: Map<string, string>; planKeys: Set<string> };
function fakeApiGateway(): void {
  gateway = { calls: [], keys: new Map(), planKeys: new Set() };
  vi.stubGlobal('fetch', async (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => {
    const { pathname, search, host, searchParams } = new URL(url);
    const body = init.body ? JSON.parse(init.body) : undefined;
    if (host === 'ssm.eu-west-1.amazonaws.com') {
      gateway.calls.push({ call: `SSM ${init.headers['x-amz-target']} ${body.Name}`, body, authorization: init.headers.authorization ?? '' });
      return Response.json({ Parameter: { Name: body.Name, Value: PLAN_ID } });
    }
    expect(host).toBe('apigateway.eu-west-1.amazonaws.com');
    gateway.calls.push({ call: `${init.method} ${pathname}${search}`, body, authorization: init.headers.authorization ?? '' });
    if (init.method === 'POST' && pathname === '/apikeys') {
      if (gateway.keys.has(body.value)) return Response.json({ message: 'API Key value already exists' }, { status: 409 });
      gateway.keys.set(body.value, 'k-123');
      return Response.json({ id: 'k-123', name: body.name, value: body.value, enabled: true }, { status: 201 });
    }
    if (init.method === 'GET' && pathname === `/usageplans/${PLAN_ID}/keys`) {
      const name = searchParams.get('nameQuery')!;
      return Response.json({ item: gateway.planKeys.has(name) ? [{ id: gateway.keys.get(name), type: 'API_KEY', name, value: name }] : [] });
    }
    if (init.method === 'POST' && pathname === `/usageplans/${PLAN_ID}/keys`) {
      gateway.planKeys.add([...gateway.keys].find(([, id]) => id === body.keyId)![0]);
      return Response.json({ id: body.keyId, type: 'API_KEY' }, { status: 201 });
    }
    if (init.method === 'DELETE' && pathname === '/apikeys/k-123') return new Response(null, { status: 202 });
    return Response.json({ message: 'not expected' }, { status: 400 });
  });
}
/** The calls made, without the plan ID's read (once a process, maybe by an earlier test). */
const gatewayCalls = () => gateway.calls.map((c) => c.call).filter((call) => !call.startsWith('SSM '));

const event = (resource: string, httpMethod: string, authorization: string) =>
  ({ type: 'REQUEST', methodArn: 'arn:aws:execute-api:eu-west-1:1:api/v1/GET/x', resource, httpMethod, headers: { Authorization: authorization } }) as never;

const regionBefore = process.env.AWS_REGION;
beforeEach(() => {
  dynamo.reset();
  dynamo.on(UpdateCommand).resolves({ Attributes: { n: 1 } });
  fakeApiGateway();
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
    AWS_SECRET_ACCESS_KEY: 'secret',
    AWS_REGION: 'eu-west-1',
    SERVICE_TOKEN: 'the-service-token',
    USAGE_API_ID: API_ID,
    GUILD_USAGE_PLAN_NAME: 'Service-guild-keys',
    GUILD_USAGE_PLAN_PARAMETER: '/Service/guild-keys-usage-plan-id',
  });
});
afterEach(() => {
  for (const name of ['SERVICE_TOKEN', 'USAGE_API_ID', 'GUILD_USAGE_PLAN_NAME', 'GUILD_USAGE_PLAN_PARAMETER']) delete process.env[name];
  if (regionBefore === undefined) delete process.env.AWS_REGION;
  else process.env.AWS_REGION = regionBefore;
  vi.unstubAllGlobals();
});

describe('the authorizer names each caller to the usage plans', () => {
  it("names the service token's key and a registered guild key's own, calling nothing more", async () => {
    dynamo.on(GetCommand).resolves({ Item: { ...keyItem, usage_key_id: 'k-123' } });
    expect((await authorizer(event('/auth/api-key', 'POST', 'Bearer the-service-token'))).usageIdentifierKey).toBe(`${API_ID}servicetoken`);
    const client = await authorizer(event('/modules/polls/status', 'GET', TOKEN));
    expect(client.usageIdentifierKey).toBe(guildUsageKey);
    expect(client.policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow' });
    expect(gateway.calls).toEqual([]);
    expect((await authorizer(event('/auth/api-key', 'POST', TOKEN))).usageIdentifierKey).toBeUndefined();
  });

  it('gives a guild key without one its API Gateway key, tagged for the guild-key plan and on it, and records it', async () => {
    dynamo.on(GetCommand).resolves({ Item: keyItem });
    expect((await authorizer(event('/modules/polls/status', 'GET', TOKEN))).usageIdentifierKey).toBe(guildUsageKey);
    // The plan's ID from the SSM parameter CDK writes it to; the account's API keys and plans are never listed.
    expect(gateway.calls.map((c) => c.call)).toEqual([
      'SSM AmazonSSM.GetParameter /Service/guild-keys-usage-plan-id',
      'POST /apikeys',
      `POST /usageplans/${PLAN_ID}/keys`,
    ]);
    expect(gateway.calls[1]!.body).toMatchObject({
      name: guildUsageKey,
      value: guildUsageKey,
      enabled: true,
      tags: { [GUILD_USAGE_KEY_TAG]: 'Service-guild-keys' },
    });
    expect(gateway.calls[2]!.body).toEqual({ keyId: 'k-123', keyType: 'API_KEY' });
    expect(gateway.calls[1]!.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/apigateway\/aws4_request/);
    expect(usageKeyWrites()).toEqual([
      { Key: { pk: `G#${GUILD}`, sk: `APIKEY#${KEY_ID}` }, update: 'SET entity = "api_key", usage_key_id = "k-123"', condition: 'attribute_exists(pk)' },
    ]);
  });

  it('finds a key registered meanwhile on the plan when its creation conflicts, and records that one', async () => {
    gateway.keys.set(guildUsageKey, 'k-123');
    gateway.planKeys.add(guildUsageKey);
    dynamo.on(GetCommand).resolves({ Item: keyItem });
    expect((await authorizer(event('/modules/polls/status', 'GET', TOKEN))).usageIdentifierKey).toBe(guildUsageKey);
    expect(gatewayCalls()).toEqual(['POST /apikeys', `GET /usageplans/${PLAN_ID}/keys?nameQuery=${guildUsageKey}&limit=500`]);
    expect(usageKeyWrites().map((w) => w.update)).toEqual(['SET entity = "api_key", usage_key_id = "k-123"']);
  });

  it('still lets the key in, recording nothing, when a key of its value exists off the plan (tried again at the next use)', async () => {
    gateway.keys.set(guildUsageKey, 'k-123');
    dynamo.on(GetCommand).resolves({ Item: keyItem });
    const seen = observe();
    const answer = await authorizer(event('/modules/polls/status', 'GET', TOKEN));
    seen.stop();
    expect(answer.policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow' });
    expect(answer.usageIdentifierKey).toBe(guildUsageKey);
    expect(usageKeyWrites()).toHaveLength(0);
    expect(seen.events('guild key rate not registered')).toEqual([expect.objectContaining({ level: 'error', key_id: KEY_ID })]);
  });

  it("gives a dashboard member's session its own API Gateway key at its first request, records it, and names it from then on", async () => {
    process.env.PLATFORM_CLIENT_SECRET = 'the-client-secret';
    try {
      dynamo.on(PutCommand).resolves({});
      const { cookie } = await startSession({
        user: { id: '42', username: 'ada' },
        guilds: [{ id: GUILD, name: 'g', manage: true, bot: true }],
        accessToken: 'tok',
      });
      const item = dynamo.commandCalls(PutCommand)[0]!.args[0].input.Item!;
      dynamo.on(GetCommand).resolves({ Item: item });
      const request = { ...(event('/modules/polls/status', 'GET', '') as object), headers: { Cookie: cookie.split(';')[0] } } as never;
      const memberKey = `${API_ID}guildkey${Buffer.from('dashboard-42').toString('hex')}`;
      expect((await authorizer(request)).usageIdentifierKey).toBe(memberKey);
      expect(gatewayCalls()).toEqual(['POST /apikeys', `POST /usageplans/${PLAN_ID}/keys`]);
      expect(gateway.calls.find((c) => c.call === 'POST /apikeys')!.body.value).toBe(memberKey);
      const recorded = dynamo
        .commandCalls(UpdateCommand)
        .map((c) => c.args[0].input)
        .filter((input) => Object.values(input.ExpressionAttributeNames ?? {}).includes('usage_key_id'));
      expect(recorded.map((input) => input.Key)).toEqual([{ pk: item.pk, sk: item.sk }]);
      // Recorded: the next request calls API Gateway no more.
      gateway.calls = [];
      dynamo.on(GetCommand).resolves({ Item: { ...item, usage_key_id: 'k-123' } });
      expect((await authorizer(request)).usageIdentifierKey).toBe(memberKey);
      expect(gatewayCalls()).toEqual([]);
    } finally {
      delete process.env.PLATFORM_CLIENT_SECRET;
    }
  });

  it('names no usage key in local mode', async () => {
    delete process.env.USAGE_API_ID;
    dynamo.on(GetCommand).resolves({ Item: keyItem });
    expect((await authorizer(event('/modules/polls/status', 'GET', TOKEN))).usageIdentifierKey).toBeUndefined();
    expect(gateway.calls).toEqual([]);
  });
});

describe('guild keys and their API Gateway keys', () => {
  it('registers a new key at once, without showing the usage key in the record', async () => {
    dynamo.on(PutCommand).resolves({});
    const key = await createApiKey(GUILD, 'dashboard');
    const usageKey = `${API_ID}guildkey${Buffer.from(key.key_id).toString('hex')}`;
    expect(gatewayCalls()).toEqual(['POST /apikeys', `POST /usageplans/${PLAN_ID}/keys`]);
    expect(gateway.calls.find((c) => c.call === 'POST /apikeys')!.body.value).toBe(usageKey);
    // Stored by the key's one write.
    expect(dynamo.commandCalls(PutCommand)[0]!.args[0].input.Item).toMatchObject({ sk: `APIKEY#${key.key_id}`, usage_key_id: 'k-123' });
    expect(usageKeyWrites()).toHaveLength(0);
    expect(key).not.toHaveProperty('usage_key_id');
  });

  it('still mints the key when API Gateway fails (the authorizer registers it at first use)', async () => {
    dynamo.on(PutCommand).resolves({});
    vi.stubGlobal('fetch', async () => Response.json({ message: 'denied' }, { status: 403 }));
    const seen = observe();
    const key = await createApiKey(GUILD, null);
    seen.stop();
    expect(key.secret).toMatch(/^gmk\./);
    expect(dynamo.commandCalls(PutCommand)[0]!.args[0].input.Item).not.toHaveProperty('usage_key_id');
    expect(seen.events('guild key rate not registered')).toEqual([expect.objectContaining({ level: 'error', guild_id: GUILD })]);
  });

  it("deletes a revoked key's API Gateway key", async () => {
    dynamo.on(DeleteCommand).resolves({
      Attributes: { ...keyItem, id: 1, key_id: KEY_ID, guild_id: GUILD, name: null, created_at: new Date().toISOString(), usage_key_id: 'k-123' },
    });
    const revoked = await revokeApiKey(GUILD, KEY_ID);
    expect(revoked).not.toHaveProperty('usage_key_id');
    expect(gateway.calls.map((c) => c.call)).toEqual(['DELETE /apikeys/k-123']);
  });
});
