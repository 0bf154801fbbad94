import { beforeAll, describe, expect, it } from 'vitest';
import type { Job } from '#infra/jobs.js';
import { queueUrlEnvName } from '#infra/jobs.js';
import type { Route } from '#shared/http/route.js';
import { type CfnTemplate, nagFindings, resourcesOfType, type Synth, synthService, templatesOf } from './helpers.js';
import type { Stack } from 'aws-cdk-lib';

const fakeRoutes: Record<string, Route[]> = {
  polls: [
    { id: 'polls.home', method: 'GET', path: '/modules/polls/', access: 'public', file: 'functions/module-state/home.ts', summary: 'home' },
    { id: 'polls.status', method: 'GET', path: '/modules/polls/status', access: 'client', file: 'functions/module-state/status.ts', summary: 'status' },
  ],
};
const fakeJobs: Job[] = [
  { id: 'polls.close', file: 'functions/polls/jobs/close.ts', schedule: 'rate(1 minute)', batchSize: 10, platform: true },
  { id: 'socials.feeds', file: 'functions/socials/jobs/feeds.ts', schedule: 'rate(5 minutes)', batchSize: 5 },
  { id: 'polls.render', file: 'functions/polls/jobs/render.ts', batchSize: 1, maxConcurrency: 2 },
  { id: 'polls.refresh', file: 'functions/polls/jobs/refresh.ts', schedule: 'rate(1 minute)', batchSize: 10 },
];

describe('job queues (fake job list)', () => {
  let synth: Synth;
  let templates: Map<Stack, CfnTemplate>;

  beforeAll(() => {
    synth = synthService(fakeRoutes, { jobs: fakeJobs });
    templates = templatesOf(synth);
  });

  it('gives every job an encrypted queue whose dead-letter queue takes a message after 5 receives', () => {
    const queues = resourcesOfType(templates, 'AWS::SQS::Queue');
    expect(queues).toHaveLength(fakeJobs.length * 2);
    for (const q of queues) expect(q.properties.SqsManagedSseEnabled).toBe(true);
    const withDlq = queues.filter((q) => q.properties.RedrivePolicy);
    expect(withDlq).toHaveLength(fakeJobs.length);
    for (const q of withDlq) {
      expect(q.properties.RedrivePolicy.maxReceiveCount).toBe(5);
      const dlqId = q.properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0];
      expect(queues.some((d) => d.logicalId === dlqId)).toBe(true);
    }
    // Queues refuse plain HTTP (enforceSSL).
    expect(resourcesOfType(templates, 'AWS::SQS::QueuePolicy')).toHaveLength(fakeJobs.length * 2);
  });

  it('drains each queue with a consumer that reports partial batch failures', () => {
    const mappings = resourcesOfType(templates, 'AWS::Lambda::EventSourceMapping');
    expect(mappings).toHaveLength(fakeJobs.length);
    expect(mappings.map((m) => m.properties.BatchSize).sort()).toEqual(fakeJobs.map((j) => j.batchSize).sort());
    for (const m of mappings) expect(m.properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    // A job with a concurrency cap gets it on its event source; the others none.
    expect(mappings.map((m) => m.properties.ScalingConfig?.MaximumConcurrency ?? null).sort()).toEqual([2, null, null, null]);
    const consumers = resourcesOfType(templates, 'AWS::Lambda::Function').filter((f) => String(f.properties.Description).endsWith(': consumer'));
    expect(consumers.map((c) => c.properties.Description).sort()).toEqual(fakeJobs.map((j) => `${j.id}: consumer`).sort());
    for (const c of consumers) expect(c.properties.Environment.Variables).toHaveProperty('QUEUE_URL');
  });

  it('fires the producer of each scheduled job from an EventBridge rule; a job that spreads, once per shard', () => {
    const rules = resourcesOfType(templates, 'AWS::Events::Rule');
    expect(rules.map((r) => r.properties.ScheduleExpression).sort()).toEqual(['rate(1 minute)', 'rate(1 minute)', 'rate(5 minutes)']);
    const producers = resourcesOfType(templates, 'AWS::Lambda::Function').filter((f) => f.properties.Handler === 'index.produce');
    expect(producers).toHaveLength(3);
    const inputs = rules.map((r) => r.properties.Targets.map((t: { Input?: string }) => (t.Input === undefined ? null : JSON.parse(t.Input))));
    expect(inputs.filter((i) => i.length === 1)).toEqual([[null], [null]]);
    expect(inputs.find((i) => i.length > 1)).toEqual([{ shard: 0 }, { shard: 1 }, { shard: 2 }, { shard: 3 }]);
  });

  it('lets route functions send to the queues of the jobs they schedule at once, and tells them those URLs only', () => {
    const routeRole = resourcesOfType(templates, 'AWS::IAM::Role').find((r) => r.stack.node.id === 'polls')!;
    const statements = routeRole.properties.Policies.flatMap((p: any) => p.PolicyDocument.Statement);
    const send = statements.find((s: any) => s.Sid === 'SendJobs');
    expect(send.Action).toBe('sqs:SendMessage');
    // polls sends polls.close and polls.refresh (infra/access.ts); polls.render and socials.feeds it never sends.
    expect(send.Resource).toHaveLength(2);
    const fn = resourcesOfType(templates, 'AWS::Lambda::Function').find((f) => String(f.properties.Description).startsWith('polls.status:'))!;
    const urls = Object.keys(fn.properties.Environment.Variables).filter((name) => name.startsWith('QUEUE_URL_'));
    expect(urls.sort()).toEqual([queueUrlEnvName('polls.close'), queueUrlEnvName('polls.refresh')]);
  });

  it("gives each job a role of its own: its module's queues, and the bot token only to a job that posts", () => {
    const byJob = (id: string) => {
      const consumer = resourcesOfType(templates, 'AWS::Lambda::Function').find((f) => f.properties.Description === `${id}: consumer`)!;
      const role = resourcesOfType(templates, 'AWS::IAM::Role').find(
        (r) => r.stack === consumer.stack && r.logicalId === consumer.properties.Role['Fn::GetAtt'][0],
      )!;
      const statements = role.properties.Policies.flatMap((p: any) => p.PolicyDocument.Statement);
      return { consumer, role, statements, sid: (sid: string) => statements.find((s: any) => s.Sid === sid) };
    };
    const polls = byJob('polls.close');
    expect(polls.sid('SendJobs').Resource).toHaveLength(3);
    expect(polls.sid('ReadSecrets')).toBeDefined();
    expect(Object.keys(polls.consumer.properties.Environment.Variables)).toContain('PLATFORM_BOT_TOKEN_SECRET_ARN');
    const socials = byJob('socials.feeds');
    expect([socials.sid('SendJobs').Resource].flat()).toHaveLength(1);
    expect(socials.sid('ReadSecrets')).toBeUndefined();
    expect(Object.keys(socials.consumer.properties.Environment.Variables).filter((name) => name.endsWith('_SECRET_ARN'))).toEqual([]);
    expect(Object.keys(socials.consumer.properties.Environment.Variables).filter((name) => name.startsWith('QUEUE_URL_'))).toEqual([
      queueUrlEnvName('socials.feeds'),
    ]);
    expect(polls.role.logicalId).not.toBe(byJob('polls.refresh').role.logicalId);
  });

  it('leaves no unacknowledged cdk-nag AwsSolutions finding', () => {
    expect(nagFindings(synth.app)).toEqual([]);
  });
});
