import { ArnFormat, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import type { Route } from '#shared/http/route.js';
import { resourcePathOf } from '../plan.js';
import { ModuleRuntime } from './module-runtime.js';
import { API_GATEWAY_TIMEOUT, lambdaInvocationUri, serviceFunction } from './service-function.js';

/**
 * How long API Gateway keeps the door's answer for one `Authorization`
 * header: the authorizer runs about once per token and five minutes, not
 * per request. A service token replaced in its secret still opens the door
 * for this long (the functions keep their copy of it as long).
 */
export const BOT_AUTHORIZER_CACHE = Duration.minutes(5);

/** HTTP API quotas (adjustable with AWS): routes and integrations per API. */
export const HTTP_API_ROUTE_QUOTA = 300;

/** What the door reads: the service token; and its stage's limits. */
export interface BotApiProps {
  /** The authorizer bundle (its `serviceTokenHandler` export). */
  code: lambda.Code;
  serviceTokenSecret: secretsmanager.ISecret;
  /** The table, named to the authorizer's role for nothing: its role gets no table access (`tableAccess: []`). */
  table: dynamodb.ITable;
  stageName: string;
  /** The service token's limits (the REST API's service usage plan has the same). */
  throttleRateLimit: number;
  throttleBurstLimit: number;
  logRetention: logs.RetentionDays;
  memorySize: number;
  /** Further environment of the authorizer (`NODE_OPTIONS` when the bundles carry source maps). */
  environment?: Readonly<Record<string, string>>;
}

/**
 * The bot's door (issue 45 part 2): an API Gateway HTTP API ($1.00 a million
 * requests, against the REST API's $3.50) carrying every route the service
 * token may call (internal and client: `BotRoutes`), at the same paths
 * under its own URL, to the same functions. Its Lambda authorizer
 * (`serviceTokenHandler`) lets the service token alone through, its answer
 * cached per token, so a guild key cannot go around its usage plan by
 * calling here. Guild keys and public routes stay on the REST API.
 */
export class BotApi extends Construct {
  readonly api: apigwv2.CfnApi;
  readonly stage: apigwv2.CfnStage;
  readonly authorizer: apigwv2.CfnAuthorizer;
  readonly authorizerFunction: lambda.Function;
  /** The stage's base URL (`https://<api>.execute-api.<region>.amazonaws.com/v1`), what the bot's SERVICE_URL is. */
  readonly url: string;

  constructor(scope: Construct, id: string, props: BotApiProps) {
    super(scope, id);
    const stack = Stack.of(this);
    this.api = new apigwv2.CfnApi(this, 'Api', {
      name: `${stack.stackName}-bot`,
      protocolType: 'HTTP',
      description: 'Guild Module Management Service: the bot (service token) door',
    });
    const runtime = new ModuleRuntime(this, 'Runtime', {
      module: 'auth (bot door authorizer)',
      table: props.table,
      indexNames: [],
      secrets: [props.serviceTokenSecret],
      queues: [],
      logRetention: props.logRetention,
      // The service token is compared with its secret; no guild key is looked up.
      tableAccess: [],
    });
    this.authorizerFunction = serviceFunction(this, 'AuthorizerFunction', {
      runtime: {
        role: runtime.role,
        logGroup: runtime.logGroup,
        environment: { ...props.environment, SERVICE_TOKEN_SECRET_ARN: props.serviceTokenSecret.secretArn },
        memorySize: props.memorySize,
        timeout: Duration.seconds(10),
      },
      code: props.code,
      handler: 'index.serviceTokenHandler',
      description: 'HTTP API authorizer: the service token only',
    });
    this.authorizer = new apigwv2.CfnAuthorizer(this, 'Authorizer', {
      apiId: this.api.ref,
      name: 'service-token',
      authorizerType: 'REQUEST',
      authorizerUri: lambdaInvocationUri(this.authorizerFunction),
      authorizerPayloadFormatVersion: '2.0',
      enableSimpleResponses: true,
      identitySource: ['$request.header.Authorization'],
      authorizerResultTtlInSeconds: BOT_AUTHORIZER_CACHE.toSeconds(),
    });
    new lambda.CfnPermission(this, 'AuthorizerInvoke', {
      action: 'lambda:InvokeFunction',
      functionName: this.authorizerFunction.functionArn,
      principal: 'apigateway.amazonaws.com',
      sourceArn: executeApiArn(this, this.api.ref, `authorizers/${this.authorizer.ref}`),
    });

    const accessLogs = new logs.LogGroup(this, 'AccessLogs', { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    this.stage = new apigwv2.CfnStage(this, 'Stage', {
      apiId: this.api.ref,
      stageName: props.stageName,
      // Routes and their changes go live without a deployment resource (nested stacks add them).
      autoDeploy: true,
      defaultRouteSettings: { throttlingRateLimit: props.throttleRateLimit, throttlingBurstLimit: props.throttleBurstLimit },
      accessLogSettings: { destinationArn: accessLogs.logGroupArn, format: JSON.stringify(ACCESS_LOG_FIELDS) },
    });
    this.url = `https://${this.api.ref}.execute-api.${stack.region}.${stack.urlSuffix}/${props.stageName}`;
  }
}

/**
 * The door's access log line: what the functions' own request line does
 * not say (the gateway's answers: refused, throttled, the function failing),
 * and the request ID joining the two; about 200 bytes, against the REST
 * stage's 450 (a million bot requests a month: $0.10 of logs, not $0.23).
 */
export const ACCESS_LOG_FIELDS = {
  id: '$context.requestId',
  route: '$context.routeKey',
  status: '$context.status',
  ms: '$context.responseLatency',
  error: '$context.error.messageString',
  authorizerError: '$context.authorizer.error',
  integrationError: '$context.integrationErrorMessage',
} as const;

/** `arn:<partition>:execute-api:<region>:<account>:<api>/<resource>`. */
function executeApiArn(scope: Construct, apiId: string, resourceName: string): string {
  return Stack.of(scope).formatArn({ service: 'execute-api', resource: apiId, arnFormat: ArnFormat.SLASH_RESOURCE_NAME, resourceName });
}

/** The HTTP API's route key of a route: the REST API's resource path (`/modules/polls/` served at `/modules/polls`). */
export const botRouteKey = (route: Pick<Route, 'method' | 'path'>) => `${route.method} ${resourcePathOf(route.path)}`;

/** The routes the door carries: every one the service token may call. */
export const botRoutes = <R extends Pick<Route, 'access'>>(routes: readonly R[]): R[] => routes.filter((route) => route.access !== 'public');

/** The door's routes of one nested stack: each route's function (from its own stack) and the door's ids. */
export interface BotRoutesProps {
  routes: readonly { route: Route; fn: lambda.IFunction }[];
  apiId: string;
  authorizerId: string;
  stageName: string;
}

/**
 * The door's routes of one route stack's routes, in a nested stack of their
 * own (three resources a route: its integration, its route and the
 * permission letting the HTTP API invoke its function for that route only),
 * so the route stacks' plan, and so every REST method's stack, is unchanged.
 */
export class BotRoutes extends Construct {
  readonly routes: apigwv2.CfnRoute[] = [];

  constructor(scope: Construct, id: string, props: BotRoutesProps) {
    super(scope, id);
    for (const { route, fn } of props.routes) {
      const own = new Construct(this, route.id);
      const integration = new apigwv2.CfnIntegration(own, 'Integration', {
        apiId: props.apiId,
        integrationType: 'AWS_PROXY',
        integrationUri: fn.functionArn,
        // The REST API's event shape: the same functions answer both doors unchanged.
        payloadFormatVersion: '1.0',
        timeoutInMillis: API_GATEWAY_TIMEOUT.toMilliseconds(),
      });
      this.routes.push(
        new apigwv2.CfnRoute(own, 'Route', {
          apiId: props.apiId,
          routeKey: botRouteKey(route),
          target: `integrations/${integration.ref}`,
          authorizationType: 'CUSTOM',
          authorizerId: props.authorizerId,
          operationName: route.id,
        }),
      );
      const path = resourcePathOf(route.path).replace(/\{[^}]*\}/g, '*');
      new lambda.CfnPermission(own, 'Invoke', {
        action: 'lambda:InvokeFunction',
        functionName: fn.functionArn,
        principal: 'apigateway.amazonaws.com',
        sourceArn: executeApiArn(own, props.apiId, `${props.stageName}/${route.method}${path}`),
      });
    }
  }
}
