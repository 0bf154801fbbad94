import { createHash } from 'node:crypto';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authorize } from '#shared/auth/credentials.js';
import { handler as authorizer, serviceTokenHandler } from '#functions/auth/authorizer.js';
import { callerFromContext } from '#shared/auth/caller.js';
import { configuredSecret } from '#shared/secrets.js';

const dynamo = mockClient(DynamoDBDocumentClient);
/** Secrets Manager, as the signed GetSecretValue requests shared/secrets.ts sends it. */
const secretReads: { url: string; headers: Record<string, string>; body: string }[] = [];
const secrets = {
  answer(SecretString: string) {
    vi.stubGlobal('fetch', async (url: string, init: { headers: Record<string, string>; body: string }) => {
      secretReads.push({ url: String(url), headers: init.headers, body: init.body });
      return new Response(JSON.stringify({ SecretString }));
    });
  },
};
const GUILD = '1234567890123456789';
const KEY_ID = 'AAAAAAAAAAAAAAAAAAAAAA';
const SECRET = 's3cret-with-enough-entropy';
const keyItem = {
  pk: `G#${GUILD}`,
  sk: `APIKEY#${KEY_ID}`,
  secret_hash: createHash('sha256').update(SECRET).digest('hex'),
  last_use: new Date().toISOString(),
};

beforeEach(() => {
  dynamo.reset();
  secretReads.length = 0;
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'secret' });
  process.env.SERVICE_TOKEN_SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:111111111111:secret:service-token';
  delete process.env.SERVICE_TOKEN;
});
afterEach(() => {
  delete process.env.SERVICE_TOKEN_SECRET_ARN;
  vi.unstubAllGlobals();
});

describe('credentials in AWS', () => {
  it('reads the service token from Secrets Manager once and keeps it', async () => {
    secrets.answer('the-service-token\n');
    expect(await authorize('Bearer the-service-token', 'internal')).toEqual({ allow: true, caller: { kind: 'service' } });
    expect(await authorize('Bearer the-service-token', 'client')).toEqual({ allow: true, caller: { kind: 'service' } });
    expect(secretReads).toHaveLength(1);
    expect(secretReads[0]).toMatchObject({
      url: 'https://secretsmanager.eu-west-1.amazonaws.com/',
      headers: {
        'x-amz-target': 'secretsmanager.GetSecretValue',
        authorization: expect.stringMatching(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/secretsmanager\/aws4_request/),
      },
    });
    expect(JSON.parse(secretReads[0]!.body)).toEqual({ SecretId: process.env.SERVICE_TOKEN_SECRET_ARN });
    expect(await configuredSecret('SERVICE_TOKEN')).toBe('the-service-token');
  });

  it('verifies a guild key with one consistent read, and refuses it on internal routes', async () => {
    secrets.answer('the-service-token');
    dynamo.on(GetCommand).resolves({ Item: keyItem });
    const token = `gmk.${GUILD}.${KEY_ID}.${SECRET}`;
    expect(await authorize(`Bearer ${token}`, 'client')).toEqual({ allow: true, caller: { kind: 'guild', guildId: GUILD, keyId: KEY_ID } });
    expect(dynamo.commandCalls(GetCommand)[0]!.args[0].input).toMatchObject({ Key: { pk: `G#${GUILD}`, sk: `APIKEY#${KEY_ID}` }, ConsistentRead: true });
    // last_use is recent: no bookkeeping write.
    expect(dynamo.commandCalls(UpdateCommand)).toHaveLength(0);
    expect(await authorize(`Bearer ${token}`, 'internal')).toMatchObject({ allow: false, status: 403 });
    expect(await authorize(`Bearer gmk.${GUILD}.${KEY_ID}.wrong`, 'client')).toMatchObject({ allow: false, status: 401 });
  });

  it('does not read the table for tokens that cannot be keys', async () => {
    secrets.answer('the-service-token');
    for (const header of [undefined, '', 'Bearer', 'Basic abc', 'Bearer gmk.x.y.z', `Bearer gmk.${GUILD}.short.${SECRET}`]) {
      expect(await authorize(header, 'client')).toMatchObject({ allow: false, status: 401 });
    }
    expect(dynamo.commandCalls(GetCommand)).toHaveLength(0);
  });

  it('answers API Gateway: throw for 401, Deny for 403, Allow with the caller as context', async () => {
    secrets.answer('the-service-token');
    dynamo.on(GetCommand).resolves({ Item: keyItem });
    const event = (resource: string, httpMethod: string, authorization?: string) =>
      ({
        type: 'REQUEST',
        methodArn: 'arn:aws:execute-api:eu-west-1:1:api/v1/GET/x',
        resource,
        httpMethod,
        headers: authorization ? { Authorization: authorization } : {},
      }) as never;
    await expect(authorizer(event('/modules/polls/status', 'GET'))).rejects.toThrow('Unauthorized');
    const service = await authorizer(event('/auth/api-key', 'POST', 'Bearer the-service-token'));
    expect(service.policyDocument.Statement[0]).toMatchObject({ Effect: 'Allow', Resource: 'arn:aws:execute-api:eu-west-1:1:api/v1/GET/x' });
    expect(service.context).toEqual({ caller: 'service' });
    const key = `Bearer gmk.${GUILD}.${KEY_ID}.${SECRET}`;
    const internal = await authorizer(event('/auth/api-key', 'POST', key));
    expect(internal.policyDocument.Statement[0]).toMatchObject({ Effect: 'Deny' });
    const client = await authorizer(event('/modules/polls/status', 'GET', key));
    expect(client.context).toEqual({ caller: 'guild', guild_id: GUILD, key_id: KEY_ID });
  });

  it("lets the service token alone through the bot's door (the HTTP API), and refuses a valid guild key there without reading the table", async () => {
    secrets.answer('the-service-token');
    dynamo.on(GetCommand).resolves({ Item: keyItem });
    const door = (authorization?: string) => serviceTokenHandler({ headers: authorization ? { authorization } : {} });
    expect(await door('Bearer the-service-token')).toEqual({ isAuthorized: true, context: { caller: 'service' } });
    expect(await door(`Bearer gmk.${GUILD}.${KEY_ID}.${SECRET}`)).toEqual({ isAuthorized: false });
    expect(await door('Bearer the-service-tokeN')).toEqual({ isAuthorized: false });
    expect(await door()).toEqual({ isAuthorized: false });
    expect(dynamo.commandCalls(GetCommand)).toHaveLength(0);
    // The route functions read the caller whether the context comes flat (REST API) or nested (HTTP API's Lambda authorizer).
    expect(callerFromContext({ lambda: { caller: 'service' } })).toEqual({ kind: 'service' });
    expect(callerFromContext({ caller: 'service' })).toEqual({ kind: 'service' });
    expect(callerFromContext({ lambda: { caller: 'guild' } })).toBeNull();
  });
});
