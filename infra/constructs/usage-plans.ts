import { Aws, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { usageKeyValue } from '#shared/auth/usage-keys.js';

/** The limits: the stage's (the service token's alone) and each guild key's. */
export interface CallerUsagePlansProps {
  api: apigw.RestApi;
  serviceRateLimit: number;
  serviceBurstLimit: number;
  guildKeyRateLimit: number;
  guildKeyBurstLimit: number;
}

/**
 * Fair use between callers (behaviour §13) with API Gateway usage plans. A
 * plan throttles each of its API keys with a token bucket of its own, and the
 * API takes the key from the authorizer's answer (key source AUTHORIZER,
 * shared/auth/usage-keys.ts). So:
 * - the service token is one key on the `service` plan, holding the stage's
 *   limit (behaviour §3.6) for itself alone;
 * - every guild API key is a key of its own on the `guild-keys` plan, at
 *   `guildKeyRate` with bursts of twice that; the functions that mint keys
 *   (and the authorizer, for a key minted before) create them at run time.
 * No stage-wide throttle is set on the credentialed methods: it would be one
 * bucket per method shared by every caller, which is how a dashboard script
 * could starve the bot.
 *
 * The guild-key plan is found by name at run time: its ID cannot be given to
 * the functions, since the plan depends on the stage and the stage on every
 * function (through the deployment).
 */
export class CallerUsagePlans extends Construct {
  readonly service: apigw.UsagePlan;
  readonly guildKeys: apigw.UsagePlan;
  readonly serviceKey: apigw.ApiKey;
  /** What the authorizer and the key-managing functions read. */
  readonly environment: Record<string, string>;
  /** Creating a guild key's API Gateway key and adding it to the plan (the authorizer and the key routes). */
  readonly registerStatements: iam.PolicyStatement[];
  /** Deleting a revoked key's API Gateway key (the key routes). */
  readonly dropStatements: iam.PolicyStatement[];

  constructor(scope: Construct, id: string, props: CallerUsagePlansProps) {
    super(scope, id);
    const guildPlanName = `${Stack.of(this).stackName}-guild-keys`;
    this.service = new apigw.UsagePlan(this, 'Service', {
      name: `${Stack.of(this).stackName}-service`,
      description: 'The service (bot) token: the stage limit, shared with no guild key',
      throttle: { rateLimit: props.serviceRateLimit, burstLimit: props.serviceBurstLimit },
    });
    this.serviceKey = new apigw.ApiKey(this, 'ServiceKey', {
      description: 'Names the service token to its usage plan (named by the authorizer; not a credential)',
      value: usageKeyValue(props.api.restApiId, { kind: 'service' }),
      enabled: true,
    });
    this.service.addApiKey(this.serviceKey);
    this.guildKeys = new apigw.UsagePlan(this, 'GuildKeys', {
      name: guildPlanName,
      description: 'Each guild API key, throttled on its own (GUILD_KEY_RATE)',
      throttle: { rateLimit: props.guildKeyRateLimit, burstLimit: props.guildKeyBurstLimit },
    });

    this.environment = { USAGE_API_ID: props.api.restApiId, GUILD_USAGE_PLAN_NAME: guildPlanName };
    const arn = (path: string) => `arn:${Aws.PARTITION}:apigateway:${Aws.REGION}::${path}`;
    this.registerStatements = [
      new iam.PolicyStatement({ sid: 'FindUsageKeys', actions: ['apigateway:GET'], resources: [arn('/apikeys'), arn('/usageplans')] }),
      new iam.PolicyStatement({ sid: 'CreateUsageKeys', actions: ['apigateway:POST'], resources: [arn('/apikeys'), arn('/usageplans/*/keys')] }),
    ];
    this.dropStatements = [new iam.PolicyStatement({ sid: 'DeleteUsageKeys', actions: ['apigateway:DELETE'], resources: [arn('/apikeys/*')] })];
  }

  /** Both plans apply to the stage. */
  attach(api: apigw.RestApi, stage: apigw.Stage): void {
    for (const plan of [this.service, this.guildKeys]) plan.addApiStage({ api, stage });
  }
}
