/**
 * The assertions every synthesised service must pass, whatever its route
 * list: shared by the test of today's routes and the test of all 279.
 */
import { type CfnResource, Stack } from 'aws-cdk-lib';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Route } from '#shared/http/route.js';
import { TABLE } from '#shared/db/table.js';
import { MIN_COMPRESSION_BYTES } from '#shared/http/caching.js';
import { API_RESOURCE_QUOTA, apiResourcePaths, methodNotAllowedPages, methodsByPath, resourcePathOf, STACK_RESOURCE_LIMIT } from '#infra/plan.js';
import type { RoutesStack } from '#infra/stacks/routes-stack.js';
import { accessOf } from '#infra/access.js';
import { type CfnTemplate, nagFindings, resourcesOfType, type Synth, synthService, templatesOf } from './helpers.js';
import { INTERNAL_REASON, UNAUTHORIZED_REASON, USAGE_KEY_PENDING_REASON } from '#shared/auth/messages.js';

/** The nested stack of the bot's door (HTTP API, its stage and authorizer). */
const DOOR_STACK = 'BotApi';

const logicalIdStem = (id: string) => id.replace(/[^A-Za-z0-9]/g, '');

/** Defines the shared checks for one route list (synthesised once, in beforeAll). */
export function describeServiceStack(label: string, groupsOf: () => Record<string, Route[]>): void {
  describe(label, () => {
    let groups: Record<string, Route[]>;
    let routes: Route[];
    let synth: Synth;
    let templates: Map<Stack, CfnTemplate>;
    let root: CfnTemplate;

    beforeAll(() => {
      groups = groupsOf();
      routes = Object.values(groups).flat();
      synth = synthService(groups);
      templates = templatesOf(synth);
      root = templates.get(synth.stack)!;
    });

    it('gives every route exactly one function, named after the route id', () => {
      const functions = resourcesOfType(templates, 'AWS::Lambda::Function');
      for (const route of routes) {
        const mine = functions.filter((f) => String(f.properties.Description).startsWith(`${route.id}:`));
        expect(mine, route.id).toHaveLength(1);
        expect(mine[0]!.logicalId.startsWith(logicalIdStem(route.id)), `${route.id} -> ${mine[0]!.logicalId}`).toBe(true);
        expect(synth.stack.endpoints.get(route.id)!.node.id).toBe(route.id);
      }
      // The route functions plus the authorizer and the bot door's (bot-api.ts), nothing else.
      expect(functions).toHaveLength(routes.length + 2);
      expect(functions.filter((f) => f.stack.node.id === DOOR_STACK).map((f) => f.properties.Handler)).toEqual(['index.serviceTokenHandler']);
    });

    it('runs functions on nodejs24.x arm64 with the shared module role and log group', () => {
      // The bot door's authorizer reads the service token alone (checked in bot-api.test.ts).
      const functions = resourcesOfType(templates, 'AWS::Lambda::Function').filter((f) => f.stack.node.id !== DOOR_STACK);
      for (const f of functions) {
        expect(f.properties).toMatchObject({ Runtime: 'nodejs24.x', Architectures: ['arm64'], Handler: 'index.handler', MemorySize: 256, Timeout: 10 });
        expect(f.properties.Environment.Variables).toHaveProperty('TABLE_NAME');
        expect(f.properties.Environment.Variables.NODE_OPTIONS).toBeUndefined();
        // Lambda's START/END/REPORT lines are not written (bench/cost.ts: logs per request).
        expect(f.properties.LoggingConfig).toMatchObject({ LogFormat: 'JSON', SystemLogLevel: 'WARN' });
      }
      for (const f of functions.filter((f) => f.stack !== synth.stack)) {
        expect(f.properties.Environment.Variables).toMatchObject({ PLATFORM_API_BASE_URL: 'https://discord.com/api/v10' });
        expect(f.properties.LoggingConfig).toHaveProperty('LogGroup');
      }
      // The bot token's ARN only where the module calls the platform (infra/access.ts).
      for (const route of routes) {
        const fn = functions.find((f) => String(f.properties.Description).startsWith(`${route.id}:`))!;
        const group = Object.keys(groups).find((g) => groups[g]!.includes(route))!;
        expect(Boolean(fn.properties.Environment.Variables.PLATFORM_BOT_TOKEN_SECRET_ARN), route.id).toBe(accessOf(group).platform);
      }
      // One role and one log group per module (group), plus the authorizer's.
      const groupCount = Object.values(groups).filter((g) => g.length > 0).length;
      const routeStack = (r: { stack: unknown }) => r.stack !== synth.stack && (r.stack as { node: { id: string } }).node.id !== DOOR_STACK;
      expect(resourcesOfType(templates, 'AWS::IAM::Role').filter(routeStack)).toHaveLength(groupCount);
      expect(resourcesOfType(templates, 'AWS::Logs::LogGroup').filter(routeStack)).toHaveLength(groupCount);
    });

    it('grants least privilege: named table and index ARNs, no Scan, no wildcard resources', () => {
      for (const role of resourcesOfType(templates, 'AWS::IAM::Role').filter((r) => r.stack !== synth.stack)) {
        const statements = role.properties.Policies.flatMap((p: any) => p.PolicyDocument.Statement);
        const actions = statements.flatMap((s: any) => [s.Action].flat());
        expect(actions).not.toContain('dynamodb:Scan');
        expect(actions.filter((a: string) => a.includes('*'))).toEqual([]);
        for (const s of statements) expect([s.Resource].flat()).not.toContain('*');
        const table = statements.find((s: any) => s.Sid === 'TableData');
        // The bot door's authorizer reaches no table at all.
        if (role.stack.node.id === DOOR_STACK) {
          expect(statements.map((s: any) => s.Sid).sort()).toEqual(['ReadSecrets', 'WriteLogs']);
          continue;
        }
        // The health module's role reads the probe's item alone, through no index.
        if (table) expect(JSON.stringify(table.Resource)).toContain(`/index/${TABLE.indexes[0]!.name}`);
        else expect(JSON.stringify(statements.find((s: any) => s.Sid === 'TableProbe').Resource)).not.toContain('/index/');
        const secrets = statements.find((s: any) => s.Sid === 'ReadSecrets');
        if (secrets) expect(secrets.Action).toBe('secretsmanager:GetSecretValue');
      }
    });

    it('gives every function exactly one invoke permission, scoped to its stage, method and path', () => {
      const permissions = resourcesOfType(templates, 'AWS::Lambda::Permission');
      const functions = resourcesOfType(templates, 'AWS::Lambda::Function');
      for (const f of functions) {
        const mine = permissions.filter((p) => p.stack === f.stack && p.properties.FunctionName['Fn::GetAtt']?.[0] === f.logicalId);
        expect(mine, f.logicalId).toHaveLength(1);
      }
      for (const route of routes) {
        const endpoint = synth.stack.endpoints.get(route.id)!;
        const permission = endpoint.function.node.findChild('ApiInvoke') as lambda.CfnPermission;
        const arn = JSON.stringify(Stack.of(endpoint).resolve(permission.sourceArn));
        expect(arn).toContain(`/v1/${route.method}${resourcePathOf(route.path).replace(/\{[^}]*\}/g, '*')}"`);
      }
    });

    it('gives every route exactly one API method on its path', () => {
      const methods = synth.app.node
        .findAll()
        .filter((c): c is apigw.Method => c instanceof apigw.Method && c.httpMethod !== 'ANY')
        .map((m) => `${m.httpMethod} ${m.resource.path}`)
        .sort();
      expect(methods).toEqual(routes.map((r) => `${r.method} ${resourcePathOf(r.path)}`).sort());
      const cfnMethods = resourcesOfType(templates, 'AWS::ApiGateway::Method').filter((m) => m.properties.HttpMethod !== 'ANY');
      for (const route of routes) {
        const mine = cfnMethods.filter((m) => m.properties.OperationName === route.id);
        expect(mine, route.id).toHaveLength(1);
        expect(mine[0]!.properties.HttpMethod).toBe(route.method);
        expect(mine[0]!.properties.Integration).toMatchObject({ Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' });
      }
    });

    it('puts the REQUEST authorizer (TTL 0) on every non-public method and on no public one', () => {
      const authorizers = resourcesOfType(templates, 'AWS::ApiGateway::Authorizer');
      expect(authorizers).toHaveLength(1);
      expect(authorizers[0]!.properties).toMatchObject({ Type: 'REQUEST', AuthorizerResultTtlInSeconds: 0 });
      // A dashboard session sends a cookie, no Authorization header: where sessions exist, no header is required before the authorizer runs.
      const signsIn = Object.keys(groups).some((group) => accessOf(group).oauth2 ?? false);
      expect(authorizers[0]!.properties.IdentitySource).toBe(signsIn ? undefined : 'method.request.header.Authorization');
      const authorizerLogicalId = authorizers[0]!.logicalId;

      const cfnMethods = resourcesOfType(templates, 'AWS::ApiGateway::Method');
      for (const route of routes) {
        const method = cfnMethods.find((m) => m.properties.OperationName === route.id)!;
        if (route.access === 'public') {
          expect(method.properties.AuthorizationType, route.id).toBe('NONE');
          expect(method.properties.AuthorizerId, route.id).toBeUndefined();
          continue;
        }
        expect(method.properties.AuthorizationType, route.id).toBe('CUSTOM');
        // In a nested stack the ID arrives as a parameter: follow it back to the authorizer in the root stack.
        const parameter = method.properties.AuthorizerId.Ref as string;
        const nested = method.stack as RoutesStack;
        const stackResource = root.Resources[synth.stack.resolve((nested.nestedStackResource as CfnResource).logicalId)]!;
        expect(stackResource.Properties!.Parameters[parameter], route.id).toEqual({ Ref: authorizerLogicalId });
      }
    });

    it('answers 405 with an Allow header on every path that has methods, without credentials', () => {
      const expected = methodsByPath(routes);
      expect(synth.stack.paths.notAllowed.map((m) => m.node.scope!.node.id).length).toBe(expected.size);
      const anyMethods = resourcesOfType(templates, 'AWS::ApiGateway::Method').filter((m) => m.properties.HttpMethod === 'ANY');
      expect(anyMethods).toHaveLength(expected.size);
      const allowHeaders = anyMethods.map((m) => m.properties.Integration.IntegrationResponses[0].ResponseParameters['method.response.header.Allow']).sort();
      expect(allowHeaders).toEqual([...expected.values()].map((methods) => `'${methods.join(', ')}'`).sort());
      // Paths answering pages (the verification link, behaviour §13; the dashboard's, §19) answer their 405 as a page; every other path the envelope.
      // The real table's verification link and dashboard answer pages; the full fixture list's rows (fake files) declare none.
      const pages = [...methodNotAllowedPages(routes).keys()].sort();
      const answersPages = routes.some((route) => route.id === 'verifier.web-verify' && route.errorPage);
      const dashboard = ['/dashboard', '/dashboard/callback', '/dashboard/guilds/{guild_id}', '/dashboard/login', '/dashboard/logout'];
      expect(pages).toEqual(answersPages ? [...dashboard, '/modules/verifier/web/{verifier_id}'] : []);
      let pageMocks = 0;
      for (const m of anyMethods) {
        expect(m.properties).toMatchObject({ AuthorizationType: 'NONE', Integration: { Type: 'MOCK' } });
        const response = m.properties.Integration.IntegrationResponses[0];
        expect(response.StatusCode).toBe('405');
        const template = response.ResponseTemplates['application/json'];
        if (response.ResponseParameters['method.response.header.Content-Type']) {
          pageMocks++;
          expect(response.ResponseParameters).toMatchObject({
            'method.response.header.Content-Type': "'text/html; charset=utf-8'",
            'method.response.header.Cache-Control': "'no-store'",
          });
          expect(template).toMatch(/^<!doctype html>/);
          expect(template).toContain('does not take $context.httpMethod');
          expect(m.properties.MethodResponses[0].ResponseParameters['method.response.header.Content-Type']).toBe(true);
          continue;
        }
        expect(JSON.parse(template)).toMatchObject({
          success: false,
          data: {},
          error: { code: 405, name: 'MethodNotAllowedError' },
        });
      }
      expect(pageMocks).toBe(pages.length);
      for (const mock of synth.stack.paths.notAllowed) {
        const path = (mock.method.resource as apigw.Resource).path;
        expect(mock.method.resource.path).toBe(path);
        expect(expected.has(path), path).toBe(true);
      }
    });

    it('rewrites gateway errors into the envelope', () => {
      const responses = resourcesOfType(templates, 'AWS::ApiGateway::GatewayResponse').map((r) => r.properties);
      const byType = new Map<string, any>(responses.map((r) => [r.ResponseType, r]));
      const expected: [string, number, string][] = [
        ['UNAUTHORIZED', 401, 'UnauthorizedError'],
        ['ACCESS_DENIED', 403, 'ForbiddenError'],
        ['MISSING_AUTHENTICATION_TOKEN', 404, 'NotFoundError'],
        ['THROTTLED', 429, 'RateLimitedError'],
        ['REQUEST_TOO_LARGE', 413, 'PayloadTooLargeError'],
        ['DEFAULT_4XX', 400, 'BadRequestError'],
        ['DEFAULT_5XX', 500, 'InternalServerError'],
      ];
      for (const [type, status, name] of expected) {
        const response = byType.get(type);
        expect(response, type).toBeDefined();
        expect(response.StatusCode).toBe(String(status));
        const body = JSON.parse(response.ResponseTemplates['application/json']);
        expect(body).toMatchObject({ success: false, data: {}, error: { code: status, name } });
        expect(body.error.message).toMatch(/^[A-Z][A-Za-z ]+! \S/);
      }
      expect(byType.get('THROTTLED').ResponseParameters['gatewayresponse.header.Retry-After']).toBe("'1'");
      // A guild key whose API Gateway key is not in force yet: retry shortly.
      expect(byType.get('INVALID_API_KEY')).toMatchObject({ StatusCode: '429', ResponseParameters: { 'gatewayresponse.header.Retry-After': "'1'" } });
      const message = (type: string) => JSON.parse(byType.get(type).ResponseTemplates['application/json']).error.message;
      expect(message('ACCESS_DENIED')).toBe(`Forbidden! ${INTERNAL_REASON}`);
      expect(message('UNAUTHORIZED')).toBe(`Unauthorized! ${UNAUTHORIZED_REASON}`);
      expect(message('THROTTLED')).toBe(
        'Too Many Requests! Each guild API key may send 10 requests a second (bursts of 20), the service token and each public route 50 (bursts of 100); this caller sent more, retry after the number of seconds in Retry-After.',
      );
      expect(message('INVALID_API_KEY')).toBe(`Too Many Requests! ${USAGE_KEY_PENDING_REASON}`);
    });

    it('builds the table from TABLE: on demand, PITR, TTL, gsi1, retained', () => {
      const tables = resourcesOfType(templates, 'AWS::DynamoDB::Table');
      expect(tables).toHaveLength(1);
      const { properties, resource } = tables[0]!;
      expect(resource.DeletionPolicy).toBe('Retain');
      expect(properties).toMatchObject({
        BillingMode: 'PAY_PER_REQUEST',
        DeletionProtectionEnabled: true,
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
        KeySchema: [
          { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
        ],
      });
      expect(properties.GlobalSecondaryIndexes.map((i: any) => i.IndexName)).toEqual(TABLE.indexes.map((i) => i.name));
    });

    it('deploys stage v1 with access logs and a deployment after every nested stack', () => {
      const stage = resourcesOfType(templates, 'AWS::ApiGateway::Stage');
      expect(stage).toHaveLength(1);
      expect(stage[0]!.properties).toMatchObject({ StageName: 'v1', AccessLogSetting: expect.objectContaining({ Format: expect.any(String) }) });
      expect(stage[0]!.properties.MethodSettings[0]).toMatchObject({ ResourcePath: '/*', HttpMethod: '*', LoggingLevel: 'ERROR' });
      const deployment = resourcesOfType(templates, 'AWS::ApiGateway::Deployment');
      expect(deployment).toHaveLength(1);
      const nestedIds = [...synth.stack.routeStacks.values()].map((s) => synth.stack.resolve((s.nestedStackResource as CfnResource).logicalId));
      expect(deployment[0]!.resource.DependsOn).toEqual(expect.arrayContaining(nestedIds));
      expect(root.Outputs).toHaveProperty('ApiUrl');
    });

    it('throttles each caller on its own: the service token at the stage limit, each guild key at its rate, public methods each at the stage limit', () => {
      const api = resourcesOfType(templates, 'AWS::ApiGateway::RestApi')[0]!;
      expect(api.properties.ApiKeySourceType).toBe('AUTHORIZER');
      // Large answers (the OpenAPI document) go gzipped to clients that accept it, from the size local mode uses too.
      expect(api.properties.MinimumCompressionSize).toBe(MIN_COMPRESSION_BYTES);
      const apiRef = { Ref: api.logicalId };

      // Credentialed methods count against the usage-plan key the authorizer names; public ones need none.
      const cfnMethods = resourcesOfType(templates, 'AWS::ApiGateway::Method');
      for (const route of routes) {
        const method = cfnMethods.find((m) => m.properties.OperationName === route.id)!;
        expect(Boolean(method.properties.ApiKeyRequired), route.id).toBe(route.access !== 'public');
      }

      const stage = resourcesOfType(templates, 'AWS::ApiGateway::Stage')[0]!;
      const plans = resourcesOfType(templates, 'AWS::ApiGateway::UsagePlan');
      expect(plans).toHaveLength(2);
      const plan = (suffix: string) => plans.find((p) => p.properties.UsagePlanName === `${synth.stack.stackName}-${suffix}`)!;
      for (const p of plans) expect(p.properties.ApiStages).toEqual([expect.objectContaining({ ApiId: apiRef, Stage: { Ref: stage.logicalId } })]);
      expect(plan('service').properties.Throttle).toEqual({ RateLimit: 50, BurstLimit: 100 });
      expect(plan('guild-keys').properties.Throttle).toEqual({ RateLimit: 10, BurstLimit: 20 });

      // The service token's key (its value is what the authorizer names) is on the service plan alone.
      const keys = resourcesOfType(templates, 'AWS::ApiGateway::ApiKey');
      expect(keys).toHaveLength(1);
      expect(keys[0]!.properties).toMatchObject({ Enabled: true, Value: { 'Fn::Join': ['', [apiRef, 'servicetoken']] } });
      const planKeys = resourcesOfType(templates, 'AWS::ApiGateway::UsagePlanKey');
      expect(planKeys.map((k) => k.properties)).toEqual([
        { KeyId: { Ref: keys[0]!.logicalId }, KeyType: 'API_KEY', UsagePlanId: { Ref: plan('service').logicalId } },
      ]);

      // No stage-wide bucket a guild key could drain: only public methods are throttled by the stage.
      const settings = stage.properties.MethodSettings as {
        ResourcePath: string;
        HttpMethod: string;
        ThrottlingRateLimit?: number;
        ThrottlingBurstLimit?: number;
      }[];
      const throttled = settings.filter((s) => s.ThrottlingRateLimit !== undefined);
      const publicRoutes = routes.filter((r) => r.access === 'public');
      expect(throttled.map((s) => `${s.HttpMethod} ${s.ResourcePath}`).sort()).toEqual(
        publicRoutes.map((r) => `${r.method} /${resourcePathOf(r.path).replace(/\//g, '~1')}`).sort(),
      );
      for (const s of throttled) expect(s).toMatchObject({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 });

      // The authorizer and the key routes know the API and the guild-key plan; they may register keys, only the key routes delete them.
      const functions = resourcesOfType(templates, 'AWS::Lambda::Function');
      const usageEnv = { USAGE_API_ID: apiRef, GUILD_USAGE_PLAN_NAME: `${synth.stack.stackName}-guild-keys` };
      const authorizerFn = functions.find((f) => String(f.properties.Description).startsWith('REQUEST authorizer'))!;
      expect(authorizerFn.properties.Environment.Variables).toMatchObject(usageEnv);
      // Their grants are policies of their own (they name the plan, which the roles' stacks cannot reference).
      const keyModuleRole = synth.stack.routeStacks.get('auth')?.moduleRuntime?.role;
      const grants = synth.stack.usagePlans.grants.map((g) => ({
        // Identity, not deep equality: a role's construct tree is not for comparing.
        role: g.role === synth.stack.authorizer!.function.role ? 'authorizer' : g.role === keyModuleRole ? 'auth module' : 'another',
        deletes: g.deletes,
        sids: (synth.stack.resolve(g.policy.document.toJSON()).Statement as { Sid: string }[]).map((st) => st.Sid),
      }));
      const keyRoutes = routes.some((r) => r.id === 'auth.create-api-key');
      expect(grants).toEqual([
        { role: 'authorizer', deletes: false, sids: ['ReadGuildPlanId', 'CreateGuildUsageKeys', 'TagGuildUsageKeys', 'GuildPlanKeys'] },
        ...(keyRoutes
          ? [
              {
                role: 'auth module',
                deletes: true,
                sids: ['ReadGuildPlanId', 'CreateGuildUsageKeys', 'TagGuildUsageKeys', 'GuildPlanKeys', 'DeleteGuildUsageKeys'],
              },
            ]
          : []),
      ]);
      for (const role of resourcesOfType(templates, 'AWS::IAM::Role')) expect(JSON.stringify(role.properties), role.logicalId).not.toContain('apigateway:');
      // The module role is shared, so the whole module of the key routes has it, and no other.
      const keyModule = Object.values(groups).find((group) => group.some((r) => r.id === 'auth.create-api-key')) ?? [];
      for (const route of routes) {
        const fn = functions.find((f) => String(f.properties.Description).startsWith(`${route.id}:`))!;
        expect(fn.properties.Environment.Variables.GUILD_USAGE_PLAN_NAME, route.id).toBe(
          keyModule.includes(route) ? usageEnv.GUILD_USAGE_PLAN_NAME : undefined,
        );
      }
    });

    it('stays inside the CloudFormation and API Gateway limits', () => {
      for (const [stack, template] of templates) {
        expect(Object.keys(template.Resources).length, stack.node.path).toBeLessThanOrEqual(STACK_RESOURCE_LIMIT);
        expect(Object.keys(template.Parameters ?? {}).length, stack.node.path).toBeLessThanOrEqual(200);
        expect(Object.keys(template.Outputs ?? {}).length, stack.node.path).toBeLessThanOrEqual(200);
        // CloudFormation reads templates of at most 1 MB (from S3, as CDK uploads them).
        expect(JSON.stringify(template).length, stack.node.path).toBeLessThanOrEqual(1_000_000);
      }
      const pathResources = resourcesOfType(templates, 'AWS::ApiGateway::Resource');
      expect(pathResources.length).toBe(apiResourcePaths(routes).length);
      expect(pathResources.length).toBeLessThanOrEqual(API_RESOURCE_QUOTA);
    });

    it('leaves no unacknowledged cdk-nag AwsSolutions finding', () => {
      expect(nagFindings(synth.app)).toEqual([]);
    });
  });
}
