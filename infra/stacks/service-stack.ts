import { existsSync } from 'node:fs';
import { CfnOutput, CfnParameter, Duration, NestedStack, RemovalPolicy, Size, Stack, type StackProps } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { type Route, entryOf } from '#shared/http/route.js';
import { TABLE } from '#shared/db/table.js';
import { MIN_COMPRESSION_BYTES } from '#shared/http/caching.js';
import { AUTHORIZER_FILE, bundleDir } from '../bundles.js';
import { KEY_ROUTE_IDS } from '#functions/auth/routes.js';
import { DEAD_LETTER_ROUTE_IDS } from '#functions/parked/routes.js';
import { DEFAULT_SETTINGS, guildKeyBurst, parseGuildKeyRate, type ServiceSettings, settingsFromContext } from '../config.js';
import { accessOf } from '../access.js';
import { type Job, queueUrlEnvName } from '../jobs.js';
import {
  API_RESOURCE_QUOTA,
  apiResourcePaths,
  checkRoutes,
  methodNotAllowedPages,
  methodsByPath,
  pathOwners,
  planStacks,
  resourcePathOf,
  type StackPlan,
} from '../plan.js';
import { ApiPaths } from '../constructs/api-paths.js';
import { apiStage } from '../constructs/api-stage.js';
import { addErrorResponses, errorResponses } from '../constructs/gateway-responses.js';
import { JobQueues } from '../constructs/job-queues.js';
import { Monitoring } from '../constructs/monitoring.js';
import { SERVICE_MODULE } from '#shared/observe/metrics.js';
import { RequestAuthorizer } from '../constructs/request-authorizer.js';
import { BotApi, BotRoutes, botRoutes, HTTP_API_ROUTE_QUOTA } from '../constructs/bot-api.js';
import { RouteEndpoint } from '../constructs/route-endpoint.js';
import { serviceTable } from '../constructs/service-table.js';
import { CallerUsagePlans } from '../constructs/usage-plans.js';
import { API_GATEWAY_TIMEOUT, type FunctionRuntime } from '../constructs/service-function.js';
import { RoutesStack } from './routes-stack.js';
import { parseAllowedHosts } from '#functions/socials/reach/client.js';

/** The stage name is the version prefix of every path (behaviour §2). */
export const STAGE_NAME = 'v1';

/** What the service is built from: the route table, the jobs, where the code comes from, and the operator's settings. */
export interface ServiceStackProps extends StackProps {
  /** Routes by group (module); each group gets its own nested stack(s), role and log group. */
  routeGroups: Readonly<Record<string, readonly Route[]>>;
  /** Scheduled work (infra/jobs.ts); its queues, consumers and schedules go in a `Jobs` nested stack. */
  jobs?: readonly Job[];
  /**
   * The deployment package of an entry (a source file, or `file#export`: `entryOf`). Defaults to the esbuild output
   * under dist/functions; tests pass a tiny fake bundle instead. Must return
   * a new `Code` per call (an asset belongs to one stack).
   */
  codeFor?: (file: string) => lambda.Code;
  /** Overrides of the operator settings (these win over CDK context, which wins over the defaults). */
  settings?: Partial<ServiceSettings>;
  /** The bundles carry source maps: turn them on with NODE_OPTIONS. */
  sourceMaps?: boolean;
}

/** The default `codeFor`: the build output, with a clear error when it is missing. */
export function codeFromDist(distRoot?: string): (file: string) => lambda.Code {
  return (file) => {
    const dir = bundleDir(file, distRoot);
    if (!existsSync(dir)) throw new Error(`No bundle for ${file} at ${dir}: run \`npm run build\` first`);
    return lambda.Code.fromAsset(dir);
  };
}

/**
 * The whole service: table, secrets, REST API with its gateway responses,
 * authorizer, stage and deployment in this stack; the route functions and
 * methods in one nested stack per module (more for big modules, see
 * plan.ts); job queues in a `Jobs` nested stack.
 *
 * API resources cross nested stacks the way CDK supports natively: the
 * `RestApi` object lives here and nested stacks create `Resource`s and
 * `Method`s against it, CDK passing the API, parent resource and authorizer
 * IDs in as nested stack parameters. We chose this over a `SpecRestApi` from
 * an OpenAPI body because the body would have to reference every function
 * ARN in the nested stacks (outputs fed back into this stack, while the
 * functions' permissions need the API ID: a cycle, or hand-built function
 * names), and the 405 mocks, gateway responses and authorizer would be
 * strings in a 279-path document instead of typed constructs. The price is a
 * hand-made `Deployment`: it depends on every nested stack and its logical ID
 * hashes the route table, so any route change creates a new deployment.
 */
export class ServiceStack extends Stack {
  readonly settings: ServiceSettings;
  readonly plans: StackPlan[];
  readonly routeStacks = new Map<string, RoutesStack>();
  readonly table: dynamodb.Table;
  readonly api: apigw.RestApi;
  readonly stage: apigw.Stage;
  readonly paths: ApiPaths;
  readonly authorizer?: RequestAuthorizer;
  /** The bot's door (an HTTP API for the service token's calls), when any route takes credentials. */
  readonly botApi?: BotApi;
  /** The door's routes, by the route stack plan whose functions they reach. */
  readonly botRouteStacks = new Map<string, NestedStack>();
  readonly usagePlans: CallerUsagePlans;
  readonly jobQueues?: JobQueues;
  readonly monitoring: Monitoring;
  readonly endpoints = new Map<string, RouteEndpoint>();
  readonly serviceTokenSecret: secretsmanager.ISecret;
  readonly platformBotTokenSecret: secretsmanager.ISecret;
  readonly cursorSecret: secretsmanager.ISecret;
  /** The OAuth2 client secret of the dashboard's sign-in, read by the route groups whose access says `oauth2` only; none when no such group is deployed. */
  readonly platformClientSecret?: secretsmanager.ISecret;

  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, props);
    const settings = (this.settings = { ...DEFAULT_SETTINGS, ...settingsFromContext(this.node), ...props.settings });
    validateSettings(settings);
    const codeFor = props.codeFor ?? codeFromDist();
    const routes = Object.values(props.routeGroups).flat();
    checkRoutes(routes);
    const apiPaths = apiResourcePaths(routes);
    if (apiPaths.length > API_RESOURCE_QUOTA) {
      throw new Error(`The routes need ${apiPaths.length} API resources; a REST API allows ${API_RESOURCE_QUOTA} by default (ask AWS for more first)`);
    }
    this.plans = planStacks(props.routeGroups, settings.stackBudget);
    const logRetention = settings.logRetentionDays as logs.RetentionDays;
    const indexNames = TABLE.indexes.map((index) => index.name);

    this.table = serviceTable(this, 'Table');
    this.serviceTokenSecret = settings.serviceTokenSecretArn
      ? secretsmanager.Secret.fromSecretCompleteArn(this, 'ServiceToken', settings.serviceTokenSecretArn)
      : new secretsmanager.Secret(this, 'ServiceToken', {
          description: 'Service (bot) token: the bearer token that may call every operation',
          generateSecretString: { passwordLength: 48, excludePunctuation: true },
          removalPolicy: RemovalPolicy.RETAIN,
        });
    this.platformBotTokenSecret = settings.platformBotTokenSecretArn
      ? secretsmanager.Secret.fromSecretCompleteArn(this, 'PlatformBotToken', settings.platformBotTokenSecretArn)
      : new secretsmanager.Secret(this, 'PlatformBotToken', {
          // Created with a random placeholder: the operator puts the real bot token in after the first deploy.
          description: 'Platform bot token (sent as Authorization: Bot <token>); replace the placeholder value',
          removalPolicy: RemovalPolicy.RETAIN,
        });
    // Keys the HMAC of list cursors (shared/db/cursor.ts); only routes that page read it. Losing it only voids cursors in flight.
    this.cursorSecret = settings.cursorSecretArn
      ? secretsmanager.Secret.fromSecretCompleteArn(this, 'CursorSecret', settings.cursorSecretArn)
      : new secretsmanager.Secret(this, 'CursorSecret', {
          description: 'Key of the HMAC that signs list cursors (next_cursor)',
          generateSecretString: { passwordLength: 64, excludePunctuation: true },
          removalPolicy: RemovalPolicy.RETAIN,
        });

    const signsIn = Object.keys(props.routeGroups).some((group) => accessOf(group).oauth2);
    if (signsIn) {
      this.platformClientSecret = settings.platformClientSecretArn
        ? secretsmanager.Secret.fromSecretCompleteArn(this, 'PlatformClientSecret', settings.platformClientSecretArn)
        : new secretsmanager.Secret(this, 'PlatformClientSecret', {
            // Issued by the platform with the application: the operator puts it in after the first deploy (docs/operations.md).
            description: "Platform application's OAuth2 client secret (the dashboard's sign-in); replace the placeholder value",
            removalPolicy: RemovalPolicy.RETAIN,
          });
    }

    // Secrets the operator names for the functions (socials source credentials): readable by name, never in the template.
    const extraSecrets = Object.entries(settings.functionSecretArns).map(([name, arn]) => ({
      name,
      secret: secretsmanager.Secret.fromSecretCompleteArn(this, `Secret${name}`, arn),
    }));
    // Plain settings every function gets; secrets (by ARN) and queue URLs only where they are read (infra/access.ts).
    const environment: Record<string, string> = {
      ...settings.functionEnvironment,
      ...(settings.sourceAllowedHosts.length > 0 ? { SOURCE_ALLOWED_HOSTS: [...parseAllowedHosts(settings.sourceAllowedHosts.join(','))].join(',') } : {}),
      TABLE_NAME: this.table.tableName,
      PLATFORM_API_BASE_URL: settings.platformApiBaseUrl,
      VERIFIER_LINK_SECONDS: String(settings.verifierLinkSeconds),
      ...(props.sourceMaps ? { NODE_OPTIONS: '--enable-source-maps' } : {}),
    };
    const secretsOf = (reads: { platform: boolean; cursors: boolean; namedSecrets: boolean; oauth2?: boolean }) => {
      const read = [
        ...(reads.platform ? [{ name: 'PLATFORM_BOT_TOKEN', secret: this.platformBotTokenSecret }] : []),
        ...(reads.cursors ? [{ name: 'CURSOR_SECRET', secret: this.cursorSecret }] : []),
        ...(reads.namedSecrets ? extraSecrets : []),
        ...(reads.oauth2 && this.platformClientSecret ? [{ name: 'PLATFORM_CLIENT_SECRET', secret: this.platformClientSecret }] : []),
      ];
      return {
        secrets: read.map((r) => r.secret),
        environment: {
          ...Object.fromEntries(read.map(({ name, secret }) => [`${name}_SECRET_ARN`, secret.secretArn])),
          // The client ID is not secret, but only the sign-in uses it.
          ...(reads.oauth2 && settings.platformClientId ? { PLATFORM_CLIENT_ID: settings.platformClientId } : {}),
        },
      };
    };

    if (props.jobs && props.jobs.length > 0) {
      // Its own nested stack: each job queue costs about a dozen resources.
      this.jobQueues = new JobQueues(new NestedStack(this, 'Jobs', { description: 'Job queues, consumers and schedules' }), 'Jobs', {
        jobs: props.jobs,
        codeFor,
        table: this.table,
        indexNames,
        secretsOf: (job) => secretsOf({ platform: job.platform ?? false, cursors: false, namedSecrets: job.namedSecrets ?? false }),
        environment,
        logRetention,
        memorySize: settings.memorySize,
      });
    }

    this.api = new apigw.RestApi(this, 'Api', {
      restApiName: `${this.stackName}-api`,
      description: 'Guild Module Management Service',
      deploy: false,
      endpointConfiguration: { types: [apigw.EndpointType.REGIONAL] },
      // Access and execution logging need the account-level CloudWatch role.
      cloudWatchRole: settings.apiCloudWatchRole,
      cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN,
      // Each credentialed call counts against the usage-plan key the authorizer names (fair use, behaviour §13).
      apiKeySourceType: apigw.ApiKeySourceType.AUTHORIZER,
      // Answers of 1 KiB and more go gzipped to clients that accept it (the ~1 MB OpenAPI document the dashboard reads); local mode does the same.
      minCompressionSize: Size.bytes(MIN_COMPRESSION_BYTES),
    });
    const limits = {
      rateLimit: settings.throttleRateLimit,
      burstLimit: settings.throttleBurstLimit,
      guildKeyRate: settings.guildKeyRate,
      guildKeyBurst: guildKeyBurst(settings.guildKeyRate),
    };
    const responses = errorResponses(limits);
    this.usagePlans = new CallerUsagePlans(this, 'Usage', {
      api: this.api,
      serviceRateLimit: limits.rateLimit,
      serviceBurstLimit: limits.burstLimit,
      guildKeyRateLimit: limits.guildKeyRate,
      guildKeyBurstLimit: limits.guildKeyBurst,
    });
    const gatewayResponses = addErrorResponses(this.api, responses);

    const sessionAccess = () => {
      const reads = secretsOf({ platform: true, cursors: false, namedSecrets: false, oauth2: true });
      return { secrets: reads.secrets, environment: { ...reads.environment, PLATFORM_API_BASE_URL: settings.platformApiBaseUrl } };
    };
    if (routes.some((route) => route.access !== 'public')) {
      this.authorizer = new RequestAuthorizer(this, 'Authorizer', {
        restApiId: this.api.restApiId,
        code: codeFor(AUTHORIZER_FILE),
        table: this.table,
        indexNames,
        serviceTokenSecret: this.serviceTokenSecret,
        logRetention,
        memorySize: settings.memorySize,
        usage: { environment: this.usagePlans.environment },
        // Sessions are decided with the OAuth2 client (shared/auth): its secret and ID, as the dashboard's functions have them,
        // and every 5 minutes the member's guilds and the bot's (its token) from the platform.
        sessions: signsIn ? sessionAccess() : undefined,
      });
      // Keys minted before usage keys existed, or whose registration failed, get theirs at first use (shared/auth/api-keys.ts).
      this.usagePlans.grantGuildKeys(this.authorizer.function.role!, 'Authorizer', { deletes: false });
    }

    // Nested stacks first, so that every path's owning scope exists before any path is created.
    const runtimes = new Map<string, FunctionRuntime>();
    for (const plan of this.plans) {
      // The module minting and revoking guild keys also creates and deletes their API Gateway keys.
      const managesKeys = (props.routeGroups[plan.group] ?? []).some((route) => KEY_ROUTE_IDS.includes(route.id));
      // The module replaying parked work takes replayed items' messages off the dead-letter queues.
      const drainsDeadLetters = this.jobQueues !== undefined && (props.routeGroups[plan.group] ?? []).some((route) => DEAD_LETTER_ROUTE_IDS.includes(route.id));
      const access = accessOf(plan.group);
      const { secrets, environment: secretEnvironment } = secretsOf(access);
      // Queues of jobs this deployment has (a test's job list may leave some out).
      const sends = access.sends.filter((job) => this.jobQueues?.queues.has(job));
      const stack = new RoutesStack(this, {
        plan,
        runtime: {
          table: this.table,
          indexNames,
          tableAccess: access.table,
          secrets,
          queues: [...new Set(sends.map((job) => this.jobQueues!.queues.get(job)!))],
          logRetention,
          statements: drainsDeadLetters ? [this.jobQueues!.drainStatement()] : [],
        },
      });
      this.routeStacks.set(plan.id, stack);
      if (stack.moduleRuntime && managesKeys) this.usagePlans.grantGuildKeys(stack.moduleRuntime.role, `Module${plan.group}`, { deletes: true });
      if (stack.moduleRuntime) {
        runtimes.set(plan.group, {
          role: stack.moduleRuntime.role,
          logGroup: stack.moduleRuntime.logGroup,
          environment: {
            ...environment,
            ...secretEnvironment,
            ...Object.fromEntries(sends.map((job) => [queueUrlEnvName(job), this.jobQueues!.queueEnvironment[queueUrlEnvName(job)]!])),
            ...(managesKeys ? this.usagePlans.environment : {}),
            ...(drainsDeadLetters ? this.jobQueues!.deadLetterEnvironment : {}),
          },
          memorySize: settings.memorySize,
          timeout: Duration.seconds(settings.timeoutSeconds),
        });
      }
    }

    const owners = pathOwners(this.plans);
    const rootPaths = new Construct(this, 'Paths');
    this.paths = new ApiPaths({
      root: this.api.root,
      scopeOf: (path) => {
        const owner = owners.get(path);
        return owner ? this.routeStacks.get(owner)!.paths : rootPaths;
      },
      allowed: methodsByPath(routes),
      pages: methodNotAllowedPages(routes),
    });
    for (const path of apiPaths) this.paths.resource(path);

    for (const plan of this.plans) {
      const stack = this.routeStacks.get(plan.id)!;
      for (const route of plan.routes) {
        const endpoint = new RouteEndpoint(stack, {
          route,
          resource: this.paths.resource(resourcePathOf(route.path)),
          code: codeFor(entryOf(route)),
          runtime: runtimes.get(plan.group)!,
          authorizer: route.access === 'public' ? undefined : this.authorizer!.authorizer,
          restApiId: this.api.restApiId,
          stageName: STAGE_NAME,
        });
        this.endpoints.set(route.id, endpoint);
      }
    }

    // The bot's door: the service token's routes again, on an HTTP API (bot-api.ts), each plan's in a nested stack of its own.
    const carried = botRoutes(routes);
    if (carried.length > HTTP_API_ROUTE_QUOTA) {
      throw new Error(
        `The bot's HTTP API would carry ${carried.length} routes; an HTTP API allows ${HTTP_API_ROUTE_QUOTA} by default (ask AWS for more first)`,
      );
    }
    if (carried.length > 0) {
      this.botApi = new BotApi(new NestedStack(this, 'BotApi', { description: "The bot's door: HTTP API, its stage and authorizer" }), 'BotApi', {
        code: codeFor(AUTHORIZER_FILE),
        serviceTokenSecret: this.serviceTokenSecret,
        table: this.table,
        stageName: STAGE_NAME,
        throttleRateLimit: settings.throttleRateLimit,
        throttleBurstLimit: settings.throttleBurstLimit,
        logRetention,
        memorySize: settings.memorySize,
        ...(props.sourceMaps ? { environment: { NODE_OPTIONS: '--enable-source-maps' } } : {}),
      });
      for (const plan of this.plans) {
        const own = botRoutes(plan.routes);
        if (own.length === 0) continue;
        const stack = new NestedStack(this, `Bot-${plan.id}`, { description: `The bot's door: routes of ${plan.id}` });
        new BotRoutes(stack, 'Routes', {
          routes: own.map((route) => ({ route, fn: this.endpoints.get(route.id)!.function })),
          apiId: this.botApi.api.ref,
          authorizerId: this.botApi.authorizer.ref,
          stageName: STAGE_NAME,
        });
        this.botRouteStacks.set(plan.id, stack);
      }
    }

    const deployment = new apigw.Deployment(this, 'Deployment', { api: this.api, description: 'Routes of the service' });
    this.stage = apiStage(this, 'Stage', {
      deployment,
      stageName: STAGE_NAME,
      publicMethods: routes.filter((route) => route.access === 'public').map((route) => ({ path: resourcePathOf(route.path), method: route.method })),
      throttleRateLimit: settings.throttleRateLimit,
      throttleBurstLimit: settings.throttleBurstLimit,
      logRetention,
    });
    for (const stack of this.routeStacks.values()) deployment.node.addDependency(stack);
    for (const mock of this.paths.notAllowed) deployment.node.addDependency(mock);
    for (const response of gatewayResponses) deployment.node.addDependency(response);
    // CDK only re-hashes deployments for methods of its own stack; ours live in nested stacks, so hash
    // what defines the API ourselves: any route, stack move, 405 list or gateway response change redeploys.
    deployment.addToLogicalId({
      routes: this.plans.flatMap((plan) => plan.routes.map((r) => [plan.id, r.id, r.method, r.path, r.access])),
      allowed: [...methodsByPath(routes)],
      pages: [...methodNotAllowedPages(routes)],
      responses,
    });
    this.api.deploymentStage = this.stage;
    this.usagePlans.attach(this.api, this.stage);

    // A deploy-time parameter, not context: the address is the operator's, changes without a new synth
    // (`cdk deploy --parameters AlarmEmail=...`), and stays out of the repository's cdk.json.
    const alarmEmail = new CfnParameter(this, 'AlarmEmail', {
      type: 'String',
      default: '',
      allowedPattern: '^$|^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$',
      constraintDescription: 'an e-mail address, or empty for no subscription',
      description: 'E-mail address that receives alarm notices (confirm the subscription mail); empty: none',
    });
    this.monitoring = new Monitoring(new NestedStack(this, 'Monitoring', { description: 'Alarms, their topic and the dashboard' }), 'Monitoring', {
      namePrefix: this.stackName,
      alarmEmail: alarmEmail.valueAsString,
      api: this.api,
      table: this.table,
      indexNames,
      // The Module dimension: a module's path segment; routes outside /modules/ (health, keys, parked work) are the service's own.
      modules: [SERVICE_MODULE, ...new Set(routes.flatMap((route) => route.path.match(/^\/modules\/([^/]+)/)?.[1] ?? []))],
      jobs: props.jobs ?? [],
      queues: [...(this.jobQueues?.groups.values() ?? [])],
    });

    new CfnOutput(this, 'ApiUrl', { value: this.stage.urlForPath('/'), description: 'Base URL of the API (the v1 stage)' });
    if (this.botApi) {
      new CfnOutput(this, 'BotApiUrl', { value: this.botApi.url, description: "The bot's door (HTTP API, service token only): the bot's SERVICE_URL" });
    }
    new CfnOutput(this, 'ServiceTokenSecretArn', { value: this.serviceTokenSecret.secretArn, description: 'The service (bot) token the bot sends as Bearer' });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.monitoring.topic.topicArn, description: 'SNS topic of every alarm (subscribe more endpoints here)' });
    new CfnOutput(this, 'PlatformBotTokenSecretArn', { value: this.platformBotTokenSecret.secretArn, description: "Put the bot's platform token here" });
    if (this.platformClientSecret) {
      new CfnOutput(this, 'PlatformClientSecretArn', {
        value: this.platformClientSecret.secretArn,
        description: "Put the platform application's OAuth2 client secret here (the dashboard's sign-in)",
      });
    }
  }
}

function validateSettings(settings: ServiceSettings): void {
  parseGuildKeyRate(settings.guildKeyRate, 'guildKeyRate');
  if (settings.timeoutSeconds > API_GATEWAY_TIMEOUT.toSeconds()) {
    throw new Error(`timeoutSeconds ${settings.timeoutSeconds} is longer than API Gateway waits (${API_GATEWAY_TIMEOUT.toSeconds()} s)`);
  }
  if (!(Object.values(logs.RetentionDays) as unknown[]).includes(settings.logRetentionDays)) {
    throw new Error(`logRetentionDays ${settings.logRetentionDays} is not a CloudWatch retention period (1, 3, 5, 7, 14, 30, 60, 90 ...)`);
  }
  if (!Number.isInteger(settings.verifierLinkSeconds)) {
    throw new Error(`verifierLinkSeconds must be a whole number of seconds, not ${settings.verifierLinkSeconds}`);
  }
  if (settings.platformClientId !== undefined && !/^[0-9]{1,20}$/.test(settings.platformClientId)) {
    throw new Error(`platformClientId must be the platform application's ID (digits), not ${settings.platformClientId}`);
  }
  if (!/^https?:\/\/.+\/api\/v\d+$/.test(settings.platformApiBaseUrl)) {
    throw new Error(`platformApiBaseUrl must be an http(s) URL ending in /api/v<N>, not ${settings.platformApiBaseUrl}`);
  }
}
