import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DEFAULT_TIMINGS } from '#shared/scheduler/config.js';
import { producerInputs } from '#shared/scheduler/keys.js';
import { deadLetterUrlEnvName } from '#shared/scheduler/queue-env.js';
import { jobModule } from '../access.js';
import { type Job, queueUrlEnvName } from '../jobs.js';
import { ModuleRuntime } from './module-runtime.js';
import { serviceFunction } from './service-function.js';

/**
 * The scheduler's own timings decide the queues: a consumer may run for a
 * sixth of the retry time (the visibility timeout, AWS's advice for Lambda
 * consumers), and a message goes to the dead-letter queue after as many
 * deliveries as the scheduler counts (behaviour §9: a poison message never
 * blocks the others). One source, so the two cannot drift apart.
 */
const VISIBILITY_TIMEOUT = Duration.millis(DEFAULT_TIMINGS.retryMs);
const CONSUMER_TIMEOUT = Duration.millis(DEFAULT_TIMINGS.retryMs / 6);
const PRODUCER_TIMEOUT = Duration.seconds(60);
export const MAX_RECEIVE_COUNT = DEFAULT_TIMINGS.maxReceiveCount;

/** The jobs, and what their functions share with the route functions. */
export interface JobQueuesProps {
  jobs: readonly Job[];
  codeFor: (file: string) => lambda.Code;
  table: dynamodb.ITable;
  indexNames: readonly string[];
  /** The secrets a job's functions read, and the environment naming them (from the job's `platform` and `namedSecrets`). */
  secretsOf: (job: Job) => { secrets: readonly secretsmanager.ISecret[]; environment: Readonly<Record<string, string>> };
  /** Environment every job function gets (table, platform settings). */
  environment: Readonly<Record<string, string>>;
  logRetention: logs.RetentionDays;
  memorySize: number;
}

/**
 * Per job: an encrypted SQS queue with a dead-letter queue, a consumer
 * Lambda reporting partial batch failures (so one bad message is retried
 * alone), and, for jobs with a schedule, a producer Lambda fired by an
 * EventBridge rule. Each job's consumer and producer share a role and log
 * group of the job's own: the role may send to the queues of its module's
 * jobs only (`polls.close` to the `polls.*` queues: a job schedules its
 * module's follow-up work) and read only the secrets the job declares.
 */
export class JobQueues extends Construct {
  /** Job id -> its queue. */
  readonly queues = new Map<string, sqs.Queue>();
  /** Job id -> its dead-letter queue. */
  readonly deadLetterQueues = new Map<string, sqs.Queue>();
  /** `QUEUE_URL_<JOB>` for every queue; each function gets those of the queues it sends to. */
  readonly queueEnvironment: Record<string, string> = {};
  /** `DLQ_URL_<JOB>` for every dead-letter queue, for the function replaying parked work only. */
  readonly deadLetterEnvironment: Record<string, string> = {};

  constructor(scope: Construct, id: string, props: JobQueuesProps) {
    super(scope, id);
    for (const job of props.jobs) {
      const jobScope = new Construct(this, job.id);
      const deadLetters = new sqs.Queue(jobScope, 'DeadLetters', {
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.days(14),
      });
      const queue = new sqs.Queue(jobScope, 'Queue', {
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        visibilityTimeout: VISIBILITY_TIMEOUT,
        deadLetterQueue: { queue: deadLetters, maxReceiveCount: MAX_RECEIVE_COUNT },
      });
      this.queues.set(job.id, queue);
      this.deadLetterQueues.set(job.id, deadLetters);
      this.queueEnvironment[queueUrlEnvName(job.id)] = queue.queueUrl;
      this.deadLetterEnvironment[deadLetterUrlEnvName(job.id)] = deadLetters.queueUrl;
    }

    for (const job of props.jobs) {
      const jobScope = this.node.findChild(job.id);
      const queue = this.queues.get(job.id)!;
      const module = jobModule(job.id);
      const ownQueues = props.jobs.filter((j) => jobModule(j.id) === module).map((j) => j.id);
      const { secrets, environment: secretEnvironment } = props.secretsOf(job);
      const runtime = new ModuleRuntime(jobScope, 'Runtime', {
        module: `job ${job.id}`,
        table: props.table,
        indexNames: props.indexNames,
        secrets,
        queues: ownQueues.map((id) => this.queues.get(id)!),
        logRetention: props.logRetention,
      });
      const shared = {
        role: runtime.role,
        logGroup: runtime.logGroup,
        environment: {
          ...props.environment,
          ...secretEnvironment,
          ...Object.fromEntries(ownQueues.map((id) => [queueUrlEnvName(id), this.queueEnvironment[queueUrlEnvName(id)]!])),
        },
        memorySize: props.memorySize,
      };
      const code = props.codeFor(job.file);
      const consumer = serviceFunction(jobScope, 'Consumer', {
        runtime: { ...shared, timeout: CONSUMER_TIMEOUT },
        code,
        description: `${job.id}: consumer`,
        environment: { QUEUE_URL: queue.queueUrl },
      });
      consumer.addEventSource(
        new SqsEventSource(queue, {
          batchSize: job.batchSize,
          reportBatchItemFailures: true,
          ...(job.maxConcurrency ? { maxConcurrency: job.maxConcurrency } : {}),
        }),
      );
      if (!job.schedule) continue;
      const producer = serviceFunction(jobScope, 'Producer', {
        runtime: { ...shared, timeout: PRODUCER_TIMEOUT },
        code,
        handler: 'index.produce',
        description: `${job.id}: scheduled producer`,
        environment: { QUEUE_URL: queue.queueUrl },
      });
      new events.Rule(jobScope, 'Schedule', {
        description: `${job.id}: find due work`,
        schedule: events.Schedule.expression(job.schedule),
        // A job that spreads: one target per shard, each run given its shard (a rule takes up to five targets).
        targets: producerInputs(job.id).map(
          (input) =>
            new targets.LambdaFunction(producer, {
              retryAttempts: 2,
              ...(input.shard === undefined ? {} : { event: events.RuleTargetInput.fromObject(input) }),
            }),
        ),
      });
    }
  }

  /** Reading the dead-letter queues and deleting from them: what replaying parked work does (shared/scheduler/dead-letters.ts). */
  drainStatement(): iam.PolicyStatement {
    return new iam.PolicyStatement({
      sid: 'DrainDeadLetters',
      actions: ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility'],
      resources: [...this.deadLetterQueues.values()].map((queue) => queue.queueArn),
    });
  }
}
