import type { Stack } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { routeGroups } from '#functions/routes.js';
import type { Route } from '#shared/http/route.js';
import { TABLE } from '#shared/db/table.js';
import { jobs } from '#infra/jobs.js';
import { jobQueueOf } from '#shared/scheduler/job.js';
import { LATE_WORK_SECONDS } from '#infra/constructs/monitoring.js';
import { deadLetterUrlEnvName } from '#shared/scheduler/queue-env.js';
import { type CfnTemplate, nagFindings, resourcesOfType, type Synth, synthService, templatesOf } from './helpers.js';

describe('alarms, their topic and the dashboard (real routes and jobs)', () => {
  let synth: Synth;
  let templates: Map<Stack, CfnTemplate>;
  const templateOf = (id: string) => [...templates].find(([stack]) => stack.node.id === id)![1];
  const root = () => templateOf('Service');
  const monitoring = () => templateOf('Monitoring');
  const alarms = () => resourcesOfType(templates, 'AWS::CloudWatch::Alarm');
  const alarmNamed = (suffix: string) => alarms().find((a) => a.properties.AlarmName === `Service-${suffix}`)!.properties;

  // The whole app with cdk-nag: over a minute on a busy machine.
  beforeAll(() => {
    synth = synthService(routeGroups as unknown as Record<string, Route[]>, { jobs });
    templates = templatesOf(synth);
  }, 180_000);

  /** The logical ID, in the Jobs stack, of the queue a Monitoring-stack parameter names. */
  function queueBehind(ref: { Ref: string }): string {
    const monitoringResource = Object.values(root().Resources).find(
      (r) => r.Type === 'AWS::CloudFormation::Stack' && JSON.stringify(r.Properties?.Parameters ?? {}).includes(ref.Ref),
    )!;
    const [, attribute] = monitoringResource.Properties!.Parameters[ref.Ref]['Fn::GetAtt'] as [string, string];
    const output = (templateOf('Jobs').Outputs as Record<string, { Value: { 'Fn::GetAtt': [string, string] } }>)[attribute.replace('Outputs.', '')]!;
    return output.Value['Fn::GetAtt'][0];
  }

  it('alarms on every dead-letter queue as soon as one message is visible', () => {
    const queues = resourcesOfType(templates, 'AWS::SQS::Queue');
    const deadLetterIds = queues.map((q) => q.properties.RedrivePolicy?.deadLetterTargetArn['Fn::GetAtt'][0]).filter(Boolean);
    expect(deadLetterIds).toHaveLength(new Set(jobs.map(jobQueueOf)).size);
    const watched = alarms()
      .filter((a) => a.properties.Namespace === 'AWS/SQS' && a.properties.MetricName === 'ApproximateNumberOfMessagesVisible')
      .map((a) => {
        expect(a.properties).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', Statistic: 'Maximum' });
        return queueBehind(a.properties.Dimensions[0].Value);
      });
    expect(watched.sort()).toEqual(deadLetterIds.sort());
  });

  it('alarms when the oldest message of any job queue is late', () => {
    const jobQueueIds = resourcesOfType(templates, 'AWS::SQS::Queue')
      .filter((q) => q.properties.RedrivePolicy)
      .map((q) => q.logicalId);
    const late = alarms().filter((a) => a.properties.MetricName === 'ApproximateAgeOfOldestMessage');
    for (const a of late) expect(a.properties.Threshold).toBe(LATE_WORK_SECONDS);
    expect(late.map((a) => queueBehind(a.properties.Dimensions[0].Value)).sort()).toEqual(jobQueueIds.sort());
  });

  it('watches the API 5xx rate, Lambda errors and throttles, table throttles, platform 429s and parked work', () => {
    const rate = alarmNamed('Api5xxRate');
    expect(rate.Metrics.find((m: any) => m.Id === 'expr_1' || m.Expression).Expression).toContain('100 * errors / requests');
    expect(
      rate.Metrics.map((m: any) => m.MetricStat?.Metric.MetricName)
        .filter(Boolean)
        .sort(),
    ).toEqual(['5XXError', 'Count']);
    expect(alarmNamed('LambdaErrors')).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: 'Errors', Threshold: 1 });
    expect(alarmNamed('LambdaErrors').Dimensions).toBeUndefined();
    expect(alarmNamed('LambdaThrottles')).toMatchObject({ Namespace: 'AWS/Lambda', MetricName: 'Throttles' });
    const throttles = alarmNamed('TableThrottles').Metrics.filter((m: any) => m.MetricStat);
    // Reads and writes of the table and of each index.
    const scopes = ['', ...TABLE.indexes.map((index) => index.name)];
    const watched = throttles.map((m: any) => {
      const index = m.MetricStat.Metric.Dimensions.find((d: any) => d.Name === 'GlobalSecondaryIndexName')?.Value ?? '';
      return `${m.MetricStat.Metric.MetricName} ${index}`;
    });
    expect(watched.sort()).toEqual(scopes.flatMap((scope) => [`ReadThrottleEvents ${scope}`, `WriteThrottleEvents ${scope}`]).sort());
    expect(alarmNamed('PlatformRateLimited')).toMatchObject({ Namespace: 'GuildModules', MetricName: 'PlatformRateLimited', Statistic: 'Sum' });
    expect(alarmNamed('JobsParked')).toMatchObject({ Namespace: 'GuildModules', MetricName: 'JobsParked', Threshold: 1 });
  });

  it('sends every alarm, and its return to OK, to the encrypted alarm topic', () => {
    const topics = resourcesOfType(templates, 'AWS::SNS::Topic');
    expect(topics).toHaveLength(1);
    expect(topics[0]!.properties.KmsMasterKeyId).toBeDefined();
    const topicRef = { Ref: topics[0]!.logicalId };
    expect(alarms().length).toBeGreaterThan(2 * new Set(jobs.map(jobQueueOf)).size);
    for (const a of alarms()) {
      expect(a.stack, a.logicalId).toBe(topics[0]!.stack);
      expect(a.properties.AlarmActions, a.logicalId).toEqual([topicRef]);
      expect(a.properties.OKActions, a.logicalId).toEqual([topicRef]);
    }
  });

  it('subscribes the e-mail address given at deploy time, and nothing when it is left empty', () => {
    expect(root().Parameters).toHaveProperty('AlarmEmail');
    expect((root().Parameters as Record<string, any>).AlarmEmail.Default).toBe('');
    const [subscription] = resourcesOfType(templates, 'AWS::SNS::Subscription');
    expect(subscription!.properties.Protocol).toBe('email');
    const condition = (subscription!.resource as { Condition?: string }).Condition!;
    expect(JSON.stringify((monitoring() as unknown as { Conditions: Record<string, unknown> }).Conditions[condition])).toContain('Fn::Not');
    // The nested stack gets the root's parameter.
    const passed = Object.values(root().Resources).some((r) => JSON.stringify(r.Properties?.Parameters ?? {}).includes('{"Ref":"AlarmEmail"}'));
    expect(passed).toBe(true);
  });

  it('draws one dashboard with the service figures and a row per module', () => {
    const dashboards = resourcesOfType(templates, 'AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0]!.properties.DashboardBody);
    const modules = Object.values(routeGroups).flatMap((routes) => routes.map((route) => route.path.match(/^\/modules\/([^/]+)/)?.[1] ?? 'service'));
    expect(new Set(modules).size).toBeGreaterThan(5);
    for (const module of new Set(modules)) {
      for (const figure of ['requests', 'errors', 'latency (ms)', 'jobs run, retried, parked']) expect(body).toContain(`${module}: ${figure}`);
    }
    expect(body).toContain('Oldest job message (s)');
    expect(body).toContain('alarm');
  });

  it('lets the parked-work routes, and no other, read and delete dead-letter messages', () => {
    const deadLetterIds = resourcesOfType(templates, 'AWS::SQS::Queue')
      .map((q) => q.properties.RedrivePolicy?.deadLetterTargetArn['Fn::GetAtt'][0])
      .filter(Boolean);
    const functions = resourcesOfType(templates, 'AWS::Lambda::Function');
    const withUrls = functions.filter((f) => Object.keys(f.properties.Environment?.Variables ?? {}).some((name) => name.startsWith('DLQ_URL_')));
    expect(withUrls.map((f) => String(f.properties.Description).split(':')[0]).sort()).toEqual(['parked.list', 'parked.replay']);
    for (const job of jobs) expect(withUrls[0]!.properties.Environment.Variables).toHaveProperty(deadLetterUrlEnvName(job.id));
    const drains = resourcesOfType(templates, 'AWS::IAM::Role').flatMap((role) =>
      (role.properties.Policies ?? []).flatMap((p: any) => p.PolicyDocument.Statement).filter((s: any) => s.Sid === 'DrainDeadLetters'),
    );
    expect(drains).toHaveLength(1);
    expect([...drains[0].Action].sort()).toEqual(['sqs:ChangeMessageVisibility', 'sqs:DeleteMessage', 'sqs:ReceiveMessage']);
    expect(drains[0].Resource).toHaveLength(deadLetterIds.length);
  });

  it('leaves no unacknowledged cdk-nag AwsSolutions finding', () => {
    expect(nagFindings(synth.app)).toEqual([]);
  });
});
