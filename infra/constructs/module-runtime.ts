import { RemovalPolicy } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { PROBE_KEY } from '../access.js';

/**
 * Item-level DynamoDB actions a module may use. No Scan (docs/architecture.md: every list
 * is a Query) and no transactions (the embedded local table has none, so no
 * code may depend on them); no table-management actions.
 */
export const TABLE_DATA_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
];

/** The table statement of a runtime: the probe's item alone, or the item-level actions (all, or those listed) on the table and its indexes. */
function tableStatement(access: 'items' | 'probe' | readonly string[], tableArn: string, indexNames: readonly string[]): iam.PolicyStatement {
  if (access === 'probe') {
    return new iam.PolicyStatement({
      sid: 'TableProbe',
      actions: ['dynamodb:GetItem'],
      resources: [tableArn],
      // The probe's partition only: a public route's role can read nothing a guild stored.
      conditions: { 'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [PROBE_KEY.pk] } },
    });
  }
  return new iam.PolicyStatement({
    sid: 'TableData',
    actions: [...(access === 'items' ? TABLE_DATA_ACTIONS : access)],
    resources: [tableArn, ...indexNames.map((name) => `${tableArn}/index/${name}`)],
  });
}

/** What a module's functions need to reach. */
export interface ModuleRuntimeProps {
  /** The module (route group) this runtime is for; used in descriptions only. */
  module: string;
  table: dynamodb.ITable;
  /** Names of the table's secondary indexes; each gets its own ARN in the policy. */
  indexNames: readonly string[];
  /** Secrets the module's functions read (infra/access.ts says which). */
  secrets: readonly secretsmanager.ISecret[];
  /** Job queues the module sends to (infra/access.ts). */
  queues: readonly sqs.IQueue[];
  logRetention: logs.RetentionDays;
  /**
   * What of the table: `items` (default), TABLE_DATA_ACTIONS on the table and its indexes; a list of actions on
   * the table and its indexes (the authorizer needs fewer; none, for no table at all); or `probe`, GetItem of the readiness probe's item alone.
   */
  tableAccess?: 'items' | 'probe' | readonly string[];
  /** Further permissions the module's functions need (managing guild keys' API Gateway keys). */
  statements?: readonly iam.PolicyStatement[];
}

/**
 * The IAM role and log group shared by every function of one module. Sharing
 * them (instead of CDK's role and log group per function) is what keeps 279
 * functions inside the per-stack resource limit, and a module's functions
 * need the same access anyway. Permissions are written out, least privilege:
 * the table and its named indexes (or the probe's item alone), GetSecretValue
 * on the secrets the module reads, send on the queues it sends to, and
 * writing to this log group only (infra/access.ts says what each module gets).
 */
export class ModuleRuntime extends Construct {
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: ModuleRuntimeProps) {
    super(scope, id);
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
      // Logs are diagnostics, not data: a deleted stack should not leave them behind.
      removalPolicy: RemovalPolicy.DESTROY,
    });

    const { tableArn } = props.table;
    const access = props.tableAccess ?? 'items';
    const statements = [
      // No table at all (an empty list): the bot door's authorizer.
      ...(Array.isArray(access) && access.length === 0 ? [] : [tableStatement(access, tableArn, props.indexNames)]),
      new iam.PolicyStatement({
        sid: 'WriteLogs',
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [this.logGroup.logGroupArn],
      }),
    ];
    if (props.secrets.length > 0) {
      statements.push(
        new iam.PolicyStatement({ sid: 'ReadSecrets', actions: ['secretsmanager:GetSecretValue'], resources: props.secrets.map((s) => s.secretArn) }),
      );
    }
    if (props.queues.length > 0) {
      statements.push(new iam.PolicyStatement({ sid: 'SendJobs', actions: ['sqs:SendMessage'], resources: props.queues.map((q) => q.queueArn) }));
    }
    statements.push(...(props.statements ?? []));

    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Functions of the ${props.module} module`,
      // Inline, not attached: one resource fewer per module, and nothing else may reuse it.
      inlinePolicies: { Access: new iam.PolicyDocument({ statements }) },
    });
  }
}
