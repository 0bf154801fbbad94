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

  it('puts the jobs in shared queues, each encrypted, whose dead-letter queue takes a message after 5 receives: a capped job alone', () => {
    const queues = resourcesOfType(templates, 'AWS::SQS::Queue');
    // polls.close, socials.feeds and polls.refresh share one; polls.render (a concurrency cap) has its own.
    expect(queues).toHaveLength(2 * 2);
    for (const q of queues) expect(q.properties.SqsManagedSseEnabled).toBe(true);
    const withDlq = queues.filter((q) => q.properties.RedrivePolicy);
    expect(withDlq).toHaveLength(2);
    for (const q of withDlq) {
      expect(q.properties.RedrivePolicy.maxReceiveCount).toBe(5);
      const dlqId = q.properties.RedrivePolicy.deadLetterTargetArn['Fn::GetAtt'][0];
      expect(queues.some((d) => d.logicalId === dlqId)).toBe(true);
    }
    // Queues refuse plain HTTP (enforceSSL).
    expect(resourcesOfType(templates, 'AWS::SQS::QueuePolicy')).toHaveLength(2 * 2);
  });

  it('drains each queue with one consumer that dispatches by job and reports partial batch failures', () => {
    const mappings = resourcesOfType(templates, 'AWS::Lambda::EventSourceMapping');
    expect(mappings).toHaveLength(2);
    // The largest batch of the queue's jobs.
    expect(mappings.map((m) => m.properties.BatchSize).sort()).toEqual([1, 10]);
    for (const m of mappings) expect(m.properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    // The capped job's queue gets its cap on its event source; the shared one none.
    expect(mappings.map((m) => m.properties.ScalingConfig?.MaximumConcurrency ?? null).sort()).toEqual([2, null]);
    const consumers = resourcesOfType(templates, 'AWS::Lambda::Function').filter((f) => String(f.properties.Description).startsWith('job queue '));
    expect(consumers.map((c) => c.properties.Description).sort()).toEqual([
      'job queue polls.render: consumer of polls.render',
      'job queue shared: consumer of polls.close, socials.feeds, polls.refresh',
    ]);
    for (const c of consumers) expect(c.properties.Handler).toBe('index.handler');
  });

  it('fires one producer for every scheduled job, one run a schedule naming its jobs (not one per job and shard)', () => {
    const rules = resourcesOfType(templates, 'AWS::Events::Rule');
    expect(rules.map((r) => r.properties.ScheduleExpression).sort()).toEqual(['rate(1 minute)', 'rate(5 minutes)']);
    const producers = resourcesOfType(templates, 'AWS::Lambda::Function').filter((f) => f.properties.Handler === 'index.produce');
    expect(producers).toHaveLength(1);
    const inputs = Object.fromEntries(
      rules.map((r) => [r.properties.ScheduleExpression, r.properties.Targets.map((t: { Input: string }) => JSON.parse(t.Input))]),
    );
    expect(inputs).toEqual({ 'rate(1 minute)': [{ jobs: ['polls.close', 'polls.refresh'] }], 'rate(5 minutes)': [{ jobs: ['socials.feeds'] }] });
    for (const rule of rules) expect(rule.properties.Targets[0].Arn['Fn::GetAtt'][0]).toBe(producers[0]!.logicalId);
  });

  it('lets route functions send to the queues of the jobs they schedule at once, and tells them those URLs only', () => {
    const routeRole = resourcesOfType(templates, 'AWS::IAM::Role').find((r) => r.stack.node.id === 'polls')!;
    const statements = routeRole.properties.Policies.flatMap((p: any) => p.PolicyDocument.Statement);
    const send = statements.find((s: any) => s.Sid === 'SendJobs');
    expect(send.Action).toBe('sqs:SendMessage');
    // polls sends polls.close and polls.refresh (infra/access.ts), both on the shared queue; polls.render's queue it never sends to.
    expect([send.Resource].flat()).toHaveLength(1);
    const fn = resourcesOfType(templates, 'AWS::Lambda::Function').find((f) => String(f.properties.Description).startsWith('polls.status:'))!;
    const urls = Object.keys(fn.properties.Environment.Variables).filter((name) => name.startsWith('QUEUE_URL_'));
    expect(urls.sort()).toEqual([queueUrlEnvName('polls.close'), queueUrlEnvName('polls.refresh')]);
  });

  it("gives each queue's consumer a role of its own (its jobs' modules' queues, the bot token only when one of its jobs posts), and the producer no secret", () => {
    const roleOf = (description: string) => {
      const fn = resourcesOfType(templates, 'AWS::Lambda::Function').find((f) => String(f.properties.Description).startsWith(description))!;
      const role = resourcesOfType(templates, 'AWS::IAM::Role').find((r) => r.stack === fn.stack && r.logicalId === fn.properties.Role['Fn::GetAtt'][0])!;
      const statements = role.properties.Policies.flatMap((p: any) => p.PolicyDocument.Statement);
      return { fn, role, sid: (sid: string) => statements.find((s: any) => s.Sid === sid) };
    };
    const shared = roleOf('job queue shared:');
    expect([shared.sid('SendJobs').Resource].flat()).toHaveLength(2);
    expect(shared.sid('ReadSecrets')).toBeDefined();
    expect(Object.keys(shared.fn.properties.Environment.Variables)).toContain('PLATFORM_BOT_TOKEN_SECRET_ARN');
    const render = roleOf('job queue polls.render:');
    expect(render.sid('ReadSecrets')).toBeUndefined();
    expect(Object.keys(render.fn.properties.Environment.Variables).filter((name) => name.endsWith('_SECRET_ARN'))).toEqual([]);
    expect(render.role.logicalId).not.toBe(shared.role.logicalId);
    const producer = roleOf('scheduled producer');
    expect([producer.sid('SendJobs').Resource].flat()).toHaveLength(1);
    expect(producer.sid('ReadSecrets')).toBeUndefined();
    expect(
      Object.keys(producer.fn.properties.Environment.Variables)
        .filter((name) => name.startsWith('QUEUE_URL_'))
        .sort(),
    ).toEqual(['polls.close', 'polls.refresh', 'socials.feeds'].map(queueUrlEnvName).sort());
  });

  it('leaves no unacknowledged cdk-nag AwsSolutions finding', () => {
    expect(nagFindings(synth.app)).toEqual([]);
  });
});
