import { Duration } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ModuleRuntime } from './module-runtime.js';
import { lambdaInvocationUri, serviceFunction } from './service-function.js';
import { allowApiInvoke } from './api-invoke-permission.js';

/**
 * How long the authorizer may run. API Gateway waits for it before, and
 * apart from, the integration's 29 s, and caching is off, so every request
 * may spend both: the reference bot's attempt timeout covers the sum.
 */
export const AUTHORIZER_TIMEOUT = Duration.seconds(10);

/** What the authorizer reads: the service token secret and the table of guild API keys. */
export interface RequestAuthorizerProps {
  restApiId: string;
  code: lambda.Code;
  table: dynamodb.ITable;
  indexNames: readonly string[];
  serviceTokenSecret: secretsmanager.ISecret;
  logRetention: logs.RetentionDays;
  memorySize: number;
  /** Naming callers to the usage plans: what the authorizer reads (its grants are attached by CallerUsagePlans). */
  usage: { environment: Record<string, string> };
  /**
   * When the dashboard is deployed, the authorizer also decides its sessions
   * (a cookie, no `Authorization` header): the secrets and settings that
   * takes (the OAuth2 client's). API Gateway then invokes it for requests
   * without the header too.
   */
  sessions?: { secrets: readonly secretsmanager.ISecret[]; environment: Record<string, string> };
}

/**
 * The REQUEST authorizer (functions/auth/authorizer.ts) in front of every
 * non-public route. Written with the L1 resource rather than
 * `RequestAuthorizer`, which binds itself lazily to the first method using
 * it: methods here live in nested stacks and receive a plain
 * `{ authorizerId, authorizationType }`, so the binding must not depend on them.
 */
export class RequestAuthorizer extends Construct {
  readonly function: lambda.Function;
  readonly resource: apigw.CfnAuthorizer;
  /** What methods pass as `authorizer`. */
  readonly authorizer: apigw.IAuthorizer;

  constructor(scope: Construct, id: string, props: RequestAuthorizerProps) {
    super(scope, id);
    const runtime = new ModuleRuntime(this, 'Runtime', {
      module: 'auth (authorizer)',
      table: props.table,
      indexNames: props.indexNames,
      secrets: [props.serviceTokenSecret, ...(props.sessions?.secrets ?? [])],
      queues: [],
      logRetention: props.logRetention,
      // Looks keys up and records their last use and usage key; never writes anything else.
      tableAccess: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:UpdateItem'],
    });
    this.function = serviceFunction(this, 'Function', {
      runtime: {
        role: runtime.role,
        logGroup: runtime.logGroup,
        environment: {
          TABLE_NAME: props.table.tableName,
          SERVICE_TOKEN_SECRET_ARN: props.serviceTokenSecret.secretArn,
          ...props.usage.environment,
          ...props.sessions?.environment,
        },
        memorySize: props.memorySize,
        timeout: AUTHORIZER_TIMEOUT,
      },
      code: props.code,
      description: 'REQUEST authorizer: service token or guild API key',
    });

    this.resource = new apigw.CfnAuthorizer(this, 'Authorizer', {
      restApiId: props.restApiId,
      name: 'guild-credentials',
      type: 'REQUEST',
      // With caching off the identity source is optional, and a named one that is absent is refused before the authorizer runs: a session sends none.
      ...(props.sessions ? {} : { identitySource: 'method.request.header.Authorization' }),
      authorizerUri: lambdaInvocationUri(this.function),
      // Caching off: a revoked API key must stop working at once (behaviour §4).
      authorizerResultTtlInSeconds: 0,
    });
    allowApiInvoke(this.function, props.restApiId, `authorizers/${this.resource.ref}`);
    this.authorizer = { authorizerId: this.resource.ref, authorizationType: apigw.AuthorizationType.CUSTOM };
  }
}
