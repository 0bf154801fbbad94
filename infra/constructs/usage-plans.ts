import { Aws, Stack } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as ssm from 'aws-cdk-lib/aws-ssm';
import { Construct } from 'constructs';
import { GUILD_USAGE_KEY_TAG, usageKeyValue } from '#shared/auth/usage-keys.js';

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
 * The guild-key plan's ID cannot be given to the functions or written into
 * their roles' own policies: the plan depends on the stage, the stage on the
 * deployment and the deployment on every function and role. So the ID is
 * published in an SSM parameter the functions read, and the grants naming
 * the plan are policies of their own here, attached to the roles after the
 * plan exists ({@link CallerUsagePlans.grantGuildKeys}).
 */
export class CallerUsagePlans extends Construct {
  readonly service: apigw.UsagePlan;
  readonly guildKeys: apigw.UsagePlan;
  readonly serviceKey: apigw.ApiKey;
  /** Holds the guild-key plan's ID for the functions (see above). */
  readonly guildPlanId: ssm.StringParameter;
  /** What the authorizer and the key-managing functions read. */
  readonly environment: Record<string, string>;
  /** The policies granting guild-key management, one per role given to {@link grantGuildKeys}. */
  readonly grants: { role: iam.IRole; policy: iam.Policy; deletes: boolean }[] = [];

  constructor(scope: Construct, id: string, props: CallerUsagePlansProps) {
    super(scope, id);
    const stackName = Stack.of(this).stackName;
    this.service = new apigw.UsagePlan(this, 'Service', {
      name: `${stackName}-service`,
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
      name: `${stackName}-guild-keys`,
      description: 'Each guild API key, throttled on its own (GUILD_KEY_RATE)',
      throttle: { rateLimit: props.guildKeyRateLimit, burstLimit: props.guildKeyBurstLimit },
    });
    // The name as a plain string: a reference to the parameter would make the functions depend on the plan.
    const parameterName = `/${stackName}/guild-keys-usage-plan-id`;
    this.guildPlanId = new ssm.StringParameter(this, 'GuildKeysId', {
      parameterName,
      description: "The guild-key usage plan's ID, for the functions that add guild keys to it",
      stringValue: this.guildKeys.usagePlanId,
    });
    this.environment = {
      USAGE_API_ID: props.api.restApiId,
      GUILD_USAGE_PLAN_NAME: `${stackName}-guild-keys`,
      GUILD_USAGE_PLAN_PARAMETER: parameterName,
    };
  }

  /**
   * Lets `role` give guild keys their API Gateway keys and, with `deletes`,
   * delete them; nothing else of API Gateway's. It may create keys only
   * tagged with the guild-key plan's name, add keys to (and look them up
   * in) that plan only, and delete only keys so tagged. It cannot list the
   * account's API keys (`GET /apikeys` would show every key's value, other
   * APIs' included).
   */
  grantGuildKeys(role: iam.IRole, id: string, options: { deletes: boolean }): iam.Policy {
    const arn = (path: string) => `arn:${Aws.PARTITION}:apigateway:${Aws.REGION}::${path}`;
    const planName = this.environment.GUILD_USAGE_PLAN_NAME!;
    const taggedForPlan = {
      StringEquals: { [`aws:RequestTag/${GUILD_USAGE_KEY_TAG}`]: planName },
      'ForAllValues:StringEquals': { 'aws:TagKeys': [GUILD_USAGE_KEY_TAG] },
    };
    const statements = [
      new iam.PolicyStatement({ sid: 'ReadGuildPlanId', actions: ['ssm:GetParameter'], resources: [this.guildPlanId.parameterArn] }),
      new iam.PolicyStatement({ sid: 'CreateGuildUsageKeys', actions: ['apigateway:POST'], resources: [arn('/apikeys')], conditions: taggedForPlan }),
      // Tags given at creation are authorised as a PUT on the new key's tags, whose ID is not known before.
      new iam.PolicyStatement({
        sid: 'TagGuildUsageKeys',
        actions: ['apigateway:PUT'],
        resources: [arn(`/tags/arn%3A${Aws.PARTITION}%3Aapigateway%3A${Aws.REGION}%3A%3A%2Fapikeys%2F*`)],
        conditions: taggedForPlan,
      }),
      new iam.PolicyStatement({
        sid: 'GuildPlanKeys',
        actions: ['apigateway:POST', 'apigateway:GET'],
        resources: [arn(`/usageplans/${this.guildKeys.usagePlanId}/keys`)],
      }),
    ];
    if (options.deletes) {
      statements.push(
        new iam.PolicyStatement({
          sid: 'DeleteGuildUsageKeys',
          actions: ['apigateway:DELETE'],
          resources: [arn('/apikeys/*')],
          conditions: { StringEquals: { [`aws:ResourceTag/${GUILD_USAGE_KEY_TAG}`]: planName } },
        }),
      );
    }
    const policy = new iam.Policy(this, `${id}Grant`, { statements, roles: [role] });
    this.grants.push({ role, policy, deletes: options.deletes });
    return policy;
  }

  /** Both plans apply to the stage. */
  attach(api: apigw.RestApi, stage: apigw.Stage): void {
    for (const plan of [this.service, this.guildKeys]) plan.addApiStage({ api, stage });
  }
}
