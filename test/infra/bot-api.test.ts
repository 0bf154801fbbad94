import type { Stack } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_LOG_FIELDS, BOT_AUTHORIZER_CACHE } from '#infra/constructs/bot-api.js';
import type { Route } from '#shared/http/route.js';
import { type CfnTemplate, nagFindings, resourcesOfType, type Synth, synthService, templatesOf } from './helpers.js';

const route = (id: string, method: Route['method'], path: string, access: Route['access']): Route => ({
  id,
  method,
  path,
  access,
  file: 'functions/module-state/status.ts',
  summary: id,
});
const fakeRoutes: Record<string, Route[]> = {
  polls: [
    route('polls.home', 'GET', '/modules/polls/', 'public'),
    route('polls.status', 'GET', '/modules/polls/status', 'client'),
    route('polls.vote', 'POST', '/modules/polls/entry/vote', 'internal'),
    route('polls.get', 'GET', '/modules/polls/entry/{poll_id}', 'client'),
  ],
  health: [route('health.livez', 'GET', '/livez', 'public')],
};

describe("the bot's door: an HTTP API for the service token", () => {
  let synth: Synth;
  let templates: Map<Stack, CfnTemplate>;

  beforeAll(() => {
    synth = synthService(fakeRoutes);
    templates = templatesOf(synth);
  });

  it('carries every route the service token may call, at the same paths, to the same functions, and no public route', () => {
    const [api] = resourcesOfType(templates, 'AWS::ApiGatewayV2::Api');
    expect(api!.properties.ProtocolType).toBe('HTTP');
    const routes = resourcesOfType(templates, 'AWS::ApiGatewayV2::Route');
    expect(routes.map((r) => r.properties.RouteKey).sort()).toEqual([
      'GET /modules/polls/entry/{poll_id}',
      'GET /modules/polls/status',
      'POST /modules/polls/entry/vote',
    ]);
    const integrations = resourcesOfType(templates, 'AWS::ApiGatewayV2::Integration');
    expect(integrations).toHaveLength(3);
    // The REST API's event shape, so the functions serve both doors unchanged.
    for (const i of integrations) expect(i.properties).toMatchObject({ IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '1.0' });
    // Each route's function: the nested stack gets the ARN of the function the REST method invokes.
    const restFunctions = resourcesOfType(templates, 'AWS::Lambda::Function').filter((f) =>
      /^polls\.(status|vote|get):/.test(String(f.properties.Description)),
    );
    expect(restFunctions).toHaveLength(3);
    const invokes = resourcesOfType(templates, 'AWS::Lambda::Permission').filter((p) => JSON.stringify(p.properties.SourceArn).includes('/v1/'));
    const doorInvokes = invokes.filter((p) => p.stack.node.id.startsWith('Bot-'));
    expect(doorInvokes.map((p) => JSON.stringify(p.properties.SourceArn).match(/\/v1\/[A-Z]+\/[^"]*/)?.[0]).sort()).toEqual([
      '/v1/GET/modules/polls/entry/*',
      '/v1/GET/modules/polls/status',
      '/v1/POST/modules/polls/entry/vote',
    ]);
  });

  it('lets every route through its authorizer only: the service token, cached per Authorization header', () => {
    const [authorizer] = resourcesOfType(templates, 'AWS::ApiGatewayV2::Authorizer');
    expect(authorizer!.properties).toMatchObject({
      AuthorizerType: 'REQUEST',
      AuthorizerPayloadFormatVersion: '2.0',
      EnableSimpleResponses: true,
      IdentitySource: ['$request.header.Authorization'],
      AuthorizerResultTtlInSeconds: BOT_AUTHORIZER_CACHE.toSeconds(),
    });
    expect(BOT_AUTHORIZER_CACHE.toSeconds()).toBeGreaterThan(0);
    for (const r of resourcesOfType(templates, 'AWS::ApiGatewayV2::Route')) expect(r.properties.AuthorizationType, r.properties.RouteKey).toBe('CUSTOM');
    const fn = resourcesOfType(templates, 'AWS::Lambda::Function').find((f) => f.properties.Handler === 'index.serviceTokenHandler')!;
    expect(fn).toBeDefined();
    // Its role reads the service token and nothing of the table: it never looks a guild key up.
    const role = resourcesOfType(templates, 'AWS::IAM::Role').find((r) => r.stack === fn.stack && r.logicalId === fn.properties.Role['Fn::GetAtt'][0])!;
    const statements = role.properties.Policies.flatMap((p: any) => p.PolicyDocument.Statement);
    expect(statements.map((s: any) => s.Sid).sort()).toEqual(['ReadSecrets', 'WriteLogs']);
    expect(JSON.stringify(statements)).not.toContain('dynamodb');
  });

  it('throttles its stage as the service token is throttled on the REST API, deploys routes as they change, and logs a short access line', () => {
    const [stage] = resourcesOfType(templates, 'AWS::ApiGatewayV2::Stage');
    expect(stage!.properties).toMatchObject({
      StageName: 'v1',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 },
    });
    expect(JSON.parse(stage!.properties.AccessLogSettings.Format)).toEqual(ACCESS_LOG_FIELDS);
    const root = templates.get(synth.stack)!;
    expect(Object.keys(root.Outputs ?? {})).toContain('BotApiUrl');
  });

  it('leaves the REST API as it was: every route there, guild keys counted by their usage plans', () => {
    const methods = resourcesOfType(templates, 'AWS::ApiGateway::Method').filter((m) => m.properties.HttpMethod !== 'ANY');
    expect(methods).toHaveLength(5);
    for (const m of methods.filter((m) => m.properties.AuthorizationType === 'CUSTOM')) expect(m.properties.ApiKeyRequired).toBe(true);
  });

  it('leaves no unacknowledged cdk-nag AwsSolutions finding', () => {
    expect(nagFindings(synth.app)).toEqual([]);
  });
});
