import type { CfnResource, NestedStack, Stack } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeGroups } from '#functions/routes.js';
import { accessOf, jobModule, PROBE_KEY } from '#infra/access.js';
import { jobs } from '#infra/jobs.js';
import { jobQueueOf } from '#shared/scheduler/job.js';
import { GUILD_USAGE_KEY_TAG } from '#shared/auth/usage-keys.js';
import type { Route } from '#shared/http/route.js';
import { type CfnTemplate, resourcesOfType, type Synth, synthService, templatesOf } from './helpers.js';

/**
 * What each role may do, read from the synthesised templates of today's
 * routes and jobs: the table, the queues and the secrets of infra/access.ts
 * and no more, and guild-key management narrowed to the guild-key plan and
 * its tagged keys (issue 42).
 */
const VIDEO_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:video-key-AbCdEf';
const groups = routeGroups as unknown as Record<string, Route[]>;
const stem = (id: string) => id.replace(/[^A-Za-z0-9]/g, '');

let synth: Synth;
let templates: Map<Stack, CfnTemplate>;
let root: CfnTemplate;

/** A value of a nested stack's template as the root stack gives it (a nested stack's parameters are set by the root). */
function inRoot(stack: Stack, value: unknown): unknown {
  if (stack === synth.stack) return value;
  const ref = (value as { Ref?: string }).Ref;
  if (typeof ref !== 'string' || !ref.startsWith('reference')) return value;
  const resource = root.Resources[synth.stack.resolve(((stack as NestedStack).nestedStackResource as CfnResource).logicalId)]!;
  return resource.Properties!.Parameters[ref];
}

interface RoleView {
  stack: Stack;
  statements: any[];
  sid: (sid: string) => any;
  /** The resources of a statement, as the root stack names them. */
  resources: (sid: string) => string[];
}

/** A role's inline policy and the policies of its own stack attached to it. */
function roleOf(stack: Stack, logicalId: string): RoleView {
  const template = templates.get(stack)!;
  const role = template.Resources[logicalId]!;
  const attached = Object.values(template.Resources).filter(
    (r) => r.Type === 'AWS::IAM::Policy' && (r.Properties!.Roles as unknown[]).some((x) => JSON.stringify(x) === JSON.stringify({ Ref: logicalId })),
  );
  const statements = [...(role.Properties!.Policies ?? []), ...attached.map((p) => p.Properties!)].flatMap((p: any) => p.PolicyDocument.Statement);
  const sid = (name: string) => statements.find((s: any) => s.Sid === name);
  const resources = (name: string) => [sid(name)?.Resource ?? []].flat().map((r: unknown) => JSON.stringify(inRoot(stack, r)));
  return { stack, statements, sid, resources };
}

function functionRole(description: string): RoleView & { env: Record<string, unknown> } {
  const fn = resourcesOfType(templates, 'AWS::Lambda::Function').find((f) => String(f.properties.Description).startsWith(description))!;
  return { ...roleOf(fn.stack, fn.properties.Role['Fn::GetAtt'][0]), env: fn.properties.Environment.Variables };
}

const secretNames = (env: Record<string, unknown>) => Object.keys(env).filter((name) => name.endsWith('_SECRET_ARN'));
const queueNames = (env: Record<string, unknown>) => Object.keys(env).filter((name) => /^(QUEUE|DLQ)_URL_/.test(name));

describe('what each role may do (today’s routes and jobs)', () => {
  beforeAll(() => {
    synth = synthService(groups, { jobs, context: { functionSecretArns: { VIDEO_API_KEY: VIDEO_ARN } } });
    templates = templatesOf(synth);
    root = templates.get(synth.stack)!;
  }, 120_000);

  it('lets the health module read the probe item and nothing else: no secrets, no queues, no writes', () => {
    for (const route of groups.health!) {
      const role = functionRole(`${route.id}:`);
      expect(role.statements.map((s) => s.Sid).sort()).toEqual(['TableProbe', 'WriteLogs']);
      expect(role.sid('TableProbe')).toMatchObject({
        Action: 'dynamodb:GetItem',
        Condition: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [PROBE_KEY.pk] } },
      });
      expect(role.resources('TableProbe')).toHaveLength(1);
      expect([...secretNames(role.env), ...queueNames(role.env)], route.id).toEqual([]);
      expect(role.env).not.toHaveProperty('USAGE_API_ID');
    }
  });

  it("gives each module's role the secrets its functions read and the queues of the jobs it sends, only", () => {
    for (const [group, routes] of Object.entries(groups)) {
      const access = accessOf(group);
      const role = functionRole(`${routes[0]!.id}:`);
      // Secrets: the bot token to modules that call the platform, the cursor key to those that page, source credentials to socials.
      const expectedSecrets = [
        ...(access.platform ? ['PLATFORM_BOT_TOKEN_SECRET_ARN'] : []),
        ...(access.cursors ? ['CURSOR_SECRET_SECRET_ARN'] : []),
        ...(access.namedSecrets ? ['VIDEO_API_KEY_SECRET_ARN'] : []),
        ...(access.oauth2 ? ['PLATFORM_CLIENT_SECRET_SECRET_ARN'] : []),
      ];
      expect(secretNames(role.env).sort(), group).toEqual(expectedSecrets.sort());
      const read = role.resources('ReadSecrets');
      expect(read, group).toHaveLength(expectedSecrets.length);
      expect(
        read.some((r) => r.includes('PlatformBotToken')),
        group,
      ).toBe(access.platform);
      expect(
        read.some((r) => r.includes('CursorSecret')),
        group,
      ).toBe(access.cursors);
      expect(
        read.some((r) => r.includes(VIDEO_ARN)),
        group,
      ).toBe(access.namedSecrets);
      expect(
        read.some((r) => r.includes('PlatformClientSecret')),
        group,
      ).toBe(access.oauth2 ?? false);

      // Queues: only its own module's jobs, only those it sends at once.
      for (const job of access.sends) expect(jobModule(job), `${group} sends ${job}`).toBe(group);
      // Jobs share queues (jobQueueOf): the queues its jobs go to, each once.
      const sent = role.resources('SendJobs');
      const queuesSent = new Set(access.sends.map((job) => jobQueueOf(jobs.find((j) => j.id === job)!)));
      expect(sent, group).toHaveLength(queuesSent.size);
      for (const queue of queuesSent)
        expect(
          sent.some((r) => r.includes(stem(queue))),
          `${group} -> ${queue}`,
        ).toBe(true);
      expect(queueNames(role.env).filter((name) => name.startsWith('QUEUE_URL_')).length, group).toBe(access.sends.length);
      expect(
        role.statements.some((s) => [s.Action].flat().includes('sqs:SendMessage') && s.Sid !== 'SendJobs'),
        group,
      ).toBe(false);
    }
    // Before: every module sent to all 18 queues and read both secrets.
    expect(functionRole(`${groups.tags![0]!.id}:`).resources('SendJobs')).toEqual([]);
  });

  it('lets only the parked-work module take messages off the dead-letter queues', () => {
    for (const [group, routes] of Object.entries(groups)) {
      const role = functionRole(`${routes[0]!.id}:`);
      expect(Boolean(role.sid('DrainDeadLetters')), group).toBe(group === 'parked');
    }
    expect(functionRole('parked.replay:').resources('DrainDeadLetters')).toHaveLength(new Set(jobs.map(jobQueueOf)).size);
  });

  it("gives each job queue's consumer a role of its own: its jobs' modules' queues, the bot token if one of its jobs posts, the source credentials only to the source pollers'", () => {
    const queues = new Map<string, typeof jobs>();
    for (const job of jobs) queues.set(jobQueueOf(job), [...(queues.get(jobQueueOf(job)) ?? []), job]);
    for (const [name, carried] of queues) {
      const role = functionRole(`job queue ${name}: consumer`);
      const modules = new Set(carried.map((job) => jobModule(job.id)));
      const own = new Set(jobs.filter((j) => modules.has(jobModule(j.id))).map(jobQueueOf));
      const sent = role.resources('SendJobs');
      expect(sent.length, name).toBe(own.size);
      for (const queue of own)
        expect(
          sent.some((r) => r.includes(stem(queue))),
          `${name} -> ${queue}`,
        ).toBe(true);
      const read = role.resources('ReadSecrets');
      expect(
        read.some((r) => r.includes('PlatformBotToken')),
        name,
      ).toBe(carried.some((job) => job.platform));
      expect(
        read.some((r) => r.includes(VIDEO_ARN)),
        name,
      ).toBe(carried.some((job) => job.namedSecrets));
      // Merging roles: a job that reads the source credentials never shares a queue with one that does not.
      expect(new Set(carried.map((job) => job.namedSecrets ?? false)).size, name).toBe(1);
      expect(
        read.some((r) => r.includes('CursorSecret')),
        name,
      ).toBe(false);
      expect(secretNames(role.env).length, name).toBe(read.length);
      // It consumes its own queue only.
      const consume = role.statements.find((s) => [s.Action].flat().includes('sqs:ReceiveMessage'));
      expect(
        [consume.Resource]
          .flat()
          .map((r: unknown) => JSON.stringify(r))
          .join(),
        name,
      ).toContain(stem(name));
      expect([consume.Resource].flat(), name).toHaveLength(1);
    }
    // The producer reads the table and sends to the queues: no secret.
    const producer = functionRole('scheduled producer');
    expect(producer.sid('ReadSecrets')).toBeUndefined();
    expect(secretNames(producer.env)).toEqual([]);
    expect(producer.resources('SendJobs')).toHaveLength(queues.size);
    // A role per module, per job queue, the producer's, the authorizer's and the bot door authorizer's.
    const roles = resourcesOfType(templates, 'AWS::IAM::Role').filter((r) => String(r.properties.Description).startsWith('Functions of'));
    expect(roles).toHaveLength(Object.keys(groups).length + queues.size + 3);
  });

  it('narrows guild-key management: the guild-key plan only, keys created and deleted only with its tag, no listing of API keys', () => {
    const plan = resourcesOfType(templates, 'AWS::ApiGateway::UsagePlan').find((p) => String(p.properties.UsagePlanName).endsWith('-guild-keys'))!;
    const planName = plan.properties.UsagePlanName as string;
    const policies = resourcesOfType(templates, 'AWS::IAM::Policy').filter((p) => JSON.stringify(p.properties).includes('apigateway:'));
    expect(policies).toHaveLength(2);
    const all = policies.flatMap((p) => p.properties.PolicyDocument.Statement as any[]);
    const gateway = all.filter((s) => [s.Action].flat().some((a: string) => a.startsWith('apigateway:')));
    for (const s of gateway) {
      const resource = JSON.stringify(s.Resource);
      // No collection GET: `GET /apikeys` would list every key's value, other APIs' keys included; `GET /usageplans` every plan.
      if ([s.Action].flat().includes('apigateway:GET')) expect(resource).toContain(`{"Ref":"${plan.logicalId}"},"/keys"`);
      if (resource.includes('/usageplans')) expect(resource).toContain(`{"Ref":"${plan.logicalId}"}`);
    }
    const bySid = (sid: string) => gateway.filter((s) => s.Sid === sid);
    for (const s of [...bySid('CreateGuildUsageKeys'), ...bySid('TagGuildUsageKeys')]) {
      expect(s.Condition).toEqual({
        StringEquals: { [`aws:RequestTag/${GUILD_USAGE_KEY_TAG}`]: planName },
        'ForAllValues:StringEquals': { 'aws:TagKeys': [GUILD_USAGE_KEY_TAG] },
      });
    }
    expect(bySid('CreateGuildUsageKeys')).toHaveLength(2);
    const deletes = gateway.filter((s) => [s.Action].flat().includes('apigateway:DELETE'));
    expect(deletes).toHaveLength(1);
    expect(deletes[0].Condition).toEqual({ StringEquals: { [`aws:ResourceTag/${GUILD_USAGE_KEY_TAG}`]: planName } });

    // The authorizer creates keys (for a guild key minted without one) and deletes none; the key routes' module both.
    const [authorizerGrant, moduleGrant] = synth.stack.usagePlans.grants;
    expect(authorizerGrant!.role).toBe(synth.stack.authorizer!.function.role);
    expect(authorizerGrant!.deletes).toBe(false);
    expect(moduleGrant!.role).toBe(synth.stack.routeStacks.get('auth')!.moduleRuntime!.role);
    expect(moduleGrant!.deletes).toBe(true);
    const authorizerActions = (synth.stack.resolve(authorizerGrant!.policy.document.toJSON()).Statement as any[]).flatMap((s) => [s.Action].flat());
    expect(authorizerActions).not.toContain('apigateway:DELETE');
  });

  it("keeps the authorizer's own role to reading keys and sessions and recording their use", () => {
    const role = functionRole('REQUEST authorizer');
    expect(role.sid('TableData').Action).toEqual(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem']);
    // With the dashboard deployed it decides sessions: the OAuth2 client secret, and the bot token for where the bot is.
    expect(secretNames(role.env)).toEqual(['SERVICE_TOKEN_SECRET_ARN', 'PLATFORM_BOT_TOKEN_SECRET_ARN', 'PLATFORM_CLIENT_SECRET_SECRET_ARN']);
    expect(role.resources('ReadSecrets')).toHaveLength(3);
    expect(role.statements.some((s) => [s.Action].flat().some((a: string) => a.startsWith('sqs:')))).toBe(false);
  });
});
