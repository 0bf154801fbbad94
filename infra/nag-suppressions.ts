/**
 * Every cdk-nag AwsSolutions finding we accept, with the reason, in one
 * place. Each is acknowledged on the narrowest construct it concerns, so a
 * new resource with the same finding is still reported.
 */
import { Validations } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { IConstruct } from 'constructs';
import type { BotStack } from './stacks/bot-stack.js';
import type { ServiceStack } from './stacks/service-stack.js';

/** Rule id -> why we accept it. */
export const NAG_REASONS = {
  'AwsSolutions-APIG2':
    'Request validation happens in each function with Zod, which answers 400/422 in the service error envelope and in the order CONTRACT 3.2 fixes; an API Gateway validator would answer first, in its own format.',
  'AwsSolutions-APIG3':
    'No WAF web ACL by default: the API is called by the bot and dashboards with bearer tokens, every non-public route has a Lambda authorizer, every caller is throttled (the service token and each guild API key by its own usage-plan key, public methods each at the stage limit). An operator can associate a web ACL with the stage without changing this app.',
  'AwsSolutions-APIG4 (405)':
    'The ANY method answering 405 MethodNotAllowedError is a MOCK that reaches no backend; it must not require credentials because CONTRACT 3.2 checks route and method (404/405) before credentials (401).',
  'AwsSolutions-APIG4 (public)':
    'Public by contract (CONTRACT 2): health probes, the OpenAPI document and its page, and the module home endpoints need no authentication.',
  'AwsSolutions-COG4':
    'Callers are the bot (service token) and guild dashboards (guild API keys), not Cognito users; a Lambda REQUEST authorizer checks those bearer tokens on every non-public method. Public methods and the 405 mocks have no authorizer on purpose (see APIG4).',
  'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]':
    "AWS's managed policy for API Gateway's account-level logging role, as AWS documents it; the log groups it writes (execution logs) are created by API Gateway with names not known at synth time.",
  'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:apigateway:<AWS::Region>::/tags/arn%3A<AWS::Partition>%3Aapigateway%3A<AWS::Region>%3A%3A%2Fapikeys%2F*]':
    "Tagging a guild key's API Gateway key as it is created: API Gateway authorises tags given at creation as a PUT on the new key's tags, and the key's ID is not known before. Allowed only with the guild-key plan's tag and no other (aws:RequestTag, aws:TagKeys); the role cannot list API keys, so it cannot learn other keys' IDs to tag them.",
  'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:apigateway:<AWS::Region>::/apikeys/*]':
    "Deleting a revoked guild key's API Gateway key: those keys are created at run time, one per guild key, so their IDs are not known at synth time; the statement allows only keys tagged with the guild-key plan's name (aws:ResourceTag).",
  'AwsSolutions-SMG4':
    'The service token is shared with the bot outside AWS, and the bot token and the OAuth2 client secret are issued by the platform; Secrets Manager cannot rotate them without the other side changing too. Operators rotate them by hand (new value in the secret, then in the bot or the platform).',
  'AwsSolutions-ECS2':
    "The bot's environment holds two addresses only (the platform's REST base and the service's URL), which are not secret; its two tokens come from Secrets Manager as container secrets.",
} as const;

function acknowledge(scope: IConstruct | undefined, id: string, reason: string): void {
  if (scope) Validations.of(scope).acknowledge({ id, reason });
}

/** Acknowledges the accepted findings on the service's constructs. */
export function applyNagSuppressions(stack: ServiceStack): void {
  acknowledge(stack.api, 'AwsSolutions-APIG2', NAG_REASONS['AwsSolutions-APIG2']);
  acknowledge(stack.stage, 'AwsSolutions-APIG3', NAG_REASONS['AwsSolutions-APIG3']);

  const logsRole = 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]' as const;
  acknowledge(stack.api.node.tryFindChild('CloudWatchRole'), logsRole, NAG_REASONS[logsRole]);

  for (const mock of stack.paths.notAllowed) {
    acknowledge(mock, 'AwsSolutions-APIG4', NAG_REASONS['AwsSolutions-APIG4 (405)']);
    acknowledge(mock, 'AwsSolutions-COG4', NAG_REASONS['AwsSolutions-COG4']);
  }
  for (const endpoint of stack.endpoints.values()) {
    acknowledge(endpoint.method, 'AwsSolutions-COG4', NAG_REASONS['AwsSolutions-COG4']);
    if (endpoint.route.access === 'public') acknowledge(endpoint.method, 'AwsSolutions-APIG4', NAG_REASONS['AwsSolutions-APIG4 (public)']);
  }

  const tagKeys =
    'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:apigateway:<AWS::Region>::/tags/arn%3A<AWS::Partition>%3Aapigateway%3A<AWS::Region>%3A%3A%2Fapikeys%2F*]' as const;
  const deleteKeys = 'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:apigateway:<AWS::Region>::/apikeys/*]' as const;
  for (const { policy, deletes } of stack.usagePlans.grants) {
    acknowledge(policy, tagKeys, NAG_REASONS[tagKeys]);
    if (deletes) acknowledge(policy, deleteKeys, NAG_REASONS[deleteKeys]);
  }

  // Only secrets this app creates; imported ones are the operator's.
  for (const secret of [
    stack.serviceTokenSecret,
    stack.platformBotTokenSecret,
    stack.cursorSecret,
    ...(stack.platformClientSecret ? [stack.platformClientSecret] : []),
  ]) {
    if (secret instanceof secretsmanager.Secret) acknowledge(secret, 'AwsSolutions-SMG4', NAG_REASONS['AwsSolutions-SMG4']);
  }
}

/** The bot stack's accepted findings (the stack is optional: `-c bot=true`). */
export function applyBotNagSuppressions(stack: BotStack): void {
  acknowledge(stack.taskDefinition, 'AwsSolutions-ECS2', NAG_REASONS['AwsSolutions-ECS2']);
}
