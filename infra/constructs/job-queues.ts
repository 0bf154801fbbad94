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
import { jobQueueOf } from '#shared/scheduler/job.js';
import { deadLetterUrlEnvName } from '#shared/scheduler/queue-env.js';
import { jobModule } from '../access.js';
import { JOB_QUEUE_FILE } from '../bundles.js';
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

/** One queue of the jobs that share it (`jobQueueOf`). */
export interface JobQueue {
  name: string;
  jobs: readonly Job[];
  queue: sqs.Queue;
  deadLetters: sqs.Queue;
}

/**
 * The job queues (issue 45 part 3: what runs whatever the events is the
 * fixed bill, and Lambda's pollers of a queue cost about $0.26 a month
 * whatever it carries). Jobs share queues (`jobQueueOf`: the shared one,
 * the source pollers', and one per job with a concurrency cap); each queue
 * is encrypted, has a dead-letter queue, and a consumer Lambda reporting
 * partial batch failures (so one bad message is retried alone), which hands
 * each message to the job it names (`functions/job-queue.ts`). A queue's
 * consumer has a role and log group of its own: the secrets its jobs
 * declare, and sending to the queues of its jobs' modules (a job schedules
 * its module's follow-up work). One producer Lambda, fired by one
 * EventBridge rule a schedule, finds the due work of every scheduled job
 * (each spreading job's shards at once); its role reads the table and sends
 * to the queues, and reads no secret.
 */
export class JobQueues extends Construct {
  /** Job id -> the queue its messages go to. */
  readonly queues = new Map<string, sqs.Queue>();
  /** Job id -> the dead-letter queue of its queue. */
  readonly deadLetterQueues = new Map<string, sqs.Queue>();
  /** The queues, by name. */
  readonly groups = new Map<string, JobQueue>();
  /** `QUEUE_URL_<JOB>` for every job (its queue's URL); each function gets those of the jobs it sends. */
  readonly queueEnvironment: Record<string, string> = {};
  /** `DLQ_URL_<JOB>` for every job, for the function replaying parked work only. */
  readonly deadLetterEnvironment: Record<string, string> = {};
  /** The producer of every scheduled job. */
  readonly producer?: lambda.Function;

  constructor(scope: Construct, id: string, props: JobQueuesProps) {
    super(scope, id);
    const byQueue = new Map<string, Job[]>();
    for (const job of props.jobs) byQueue.set(jobQueueOf(job), [...(byQueue.get(jobQueueOf(job)) ?? []), job]);

    for (const [name, jobs] of byQueue) {
      const queueScope = new Construct(this, name);
      const deadLetters = new sqs.Queue(queueScope, 'DeadLetters', {
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        retentionPeriod: Duration.days(14),
      });
      const queue = new sqs.Queue(queueScope, 'Queue', {
        encryption: sqs.QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        visibilityTimeout: VISIBILITY_TIMEOUT,
        deadLetterQueue: { queue: deadLetters, maxReceiveCount: MAX_RECEIVE_COUNT },
      });
      this.groups.set(name, { name, jobs, queue, deadLetters });
      for (const job of jobs) {
        this.queues.set(job.id, queue);
        this.deadLetterQueues.set(job.id, deadLetters);
        this.queueEnvironment[queueUrlEnvName(job.id)] = queue.queueUrl;
        this.deadLetterEnvironment[deadLetterUrlEnvName(job.id)] = deadLetters.queueUrl;
      }
    }

    for (const { name, jobs, queue } of this.groups.values()) {
      const queueScope = this.node.findChild(name);
      const modules = new Set(jobs.map((job) => jobModule(job.id)));
      const sends = props.jobs.filter((j) => modules.has(jobModule(j.id))).map((j) => j.id);
      const read = jobs.map((job) => props.secretsOf(job));
      const runtime = new ModuleRuntime(queueScope, 'Runtime', {
        module: `job queue ${name}`,
        table: props.table,
        indexNames: props.indexNames,
        secrets: [...new Set(read.flatMap((r) => r.secrets))],
        queues: [...new Set(sends.map((job) => this.queues.get(job)!))],
        logRetention: props.logRetention,
      });
      const consumer = serviceFunction(queueScope, 'Consumer', {
        runtime: {
          role: runtime.role,
          logGroup: runtime.logGroup,
          environment: {
            ...props.environment,
            ...Object.assign({}, ...read.map((r) => r.environment)),
            ...Object.fromEntries(sends.map((job) => [queueUrlEnvName(job), this.queueEnvironment[queueUrlEnvName(job)]!])),
          },
          memorySize: props.memorySize,
          timeout: CONSUMER_TIMEOUT,
        },
        code: props.codeFor(JOB_QUEUE_FILE),
        description: `job queue ${name}: consumer of ${jobs.map((job) => job.id).join(', ')}`,
      });
      const caps = jobs.flatMap((job) => (job.maxConcurrency === undefined ? [] : [job.maxConcurrency]));
      consumer.addEventSource(
        new SqsEventSource(queue, {
          // Each message runs at once with the function's whole time, so the largest batch of its jobs' is taken.
          batchSize: Math.max(...jobs.map((job) => job.batchSize)),
          reportBatchItemFailures: true,
          ...(caps.length > 0 ? { maxConcurrency: Math.min(...caps) } : {}),
        }),
      );
    }

    const scheduled = props.jobs.filter((job) => job.schedule);
    if (scheduled.length === 0) return;
    const producerScope = new Construct(this, 'Producer');
    const runtime = new ModuleRuntime(producerScope, 'Runtime', {
      module: 'job producer',
      table: props.table,
      indexNames: props.indexNames,
      secrets: [],
      queues: [...new Set(scheduled.map((job) => this.queues.get(job.id)!))],
      logRetention: props.logRetention,
    });
    const producer = serviceFunction(producerScope, 'Function', {
      runtime: {
        role: runtime.role,
        logGroup: runtime.logGroup,
        environment: {
          ...props.environment,
          ...Object.fromEntries(scheduled.map((job) => [queueUrlEnvName(job.id), this.queueEnvironment[queueUrlEnvName(job.id)]!])),
        },
        memorySize: props.memorySize,
        timeout: PRODUCER_TIMEOUT,
      },
      code: props.codeFor(JOB_QUEUE_FILE),
      handler: 'index.produce',
      description: `scheduled producer of ${scheduled.length} jobs`,
    });
    this.producer = producer;
    const bySchedule = new Map<string, Job[]>();
    for (const job of scheduled) bySchedule.set(job.schedule!, [...(bySchedule.get(job.schedule!) ?? []), job]);
    let n = 0;
    for (const [schedule, jobs] of bySchedule) {
      new events.Rule(producerScope, `Schedule${n++ === 0 ? '' : n}`, {
        description: `find due work: ${jobs.map((job) => job.id).join(', ')}`.slice(0, 512),
        schedule: events.Schedule.expression(schedule),
        // One run for all the rule's jobs (one invocation, not one per job and shard): it names them.
        targets: [new targets.LambdaFunction(producer, { retryAttempts: 2, event: events.RuleTargetInput.fromObject({ jobs: jobs.map((job) => job.id) }) })],
      });
    }
  }

  /** Reading the dead-letter queues and deleting from them: what replaying parked work does (shared/scheduler/dead-letters.ts). */
  drainStatement(): iam.PolicyStatement {
    return new iam.PolicyStatement({
      sid: 'DrainDeadLetters',
      actions: ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility'],
      resources: [...this.groups.values()].map((group) => group.deadLetters.queueArn),
    });
  }
}
