import { RemovalPolicy } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/** The deployment the stage serves, its name, throttling and log retention. */
export interface ApiStageProps {
  deployment: apigw.Deployment;
  stageName: string;
  /**
   * The methods that take no credentials (`/livez` GET ...), throttled each at
   * the stage's limit. Credentialed methods are throttled per caller by the
   * usage plans (usage-plans.ts), never by a stage-wide bucket.
   */
  publicMethods: readonly { path: string; method: string }[];
  throttleRateLimit: number;
  throttleBurstLimit: number;
  logRetention: logs.RetentionDays;
}

/** What each access log line records: enough to trace a request and see who called, without secrets. */
function accessLogFormat(): apigw.AccessLogFormat {
  const F = apigw.AccessLogField;
  return apigw.AccessLogFormat.custom(
    JSON.stringify({
      requestId: F.contextRequestId(),
      ip: F.contextIdentitySourceIp(),
      requestTime: F.contextRequestTime(),
      httpMethod: F.contextHttpMethod(),
      resourcePath: F.contextResourcePath(),
      path: F.contextPath(),
      status: F.contextStatus(),
      responseLength: F.contextResponseLength(),
      responseLatency: F.contextResponseLatency(),
      integrationLatency: F.contextIntegrationLatency(),
      errorType: F.contextErrorResponseType(),
      authorizerError: F.contextAuthorizeError(),
      caller: F.contextAuthorizer('caller'),
      guildId: F.contextAuthorizer('guild_id'),
    }),
  );
}

/** The API stage (`v1`): public methods throttled, JSON access logs, execution logs for errors only. */
export function apiStage(scope: Construct, id: string, props: ApiStageProps): apigw.Stage {
  const accessLogs = new logs.LogGroup(scope, `${id}AccessLogs`, { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
  return new apigw.Stage(scope, id, {
    deployment: props.deployment,
    stageName: props.stageName,
    methodOptions: Object.fromEntries(
      props.publicMethods.map(({ path, method }) => [
        `${path}/${method}`,
        { throttlingRateLimit: props.throttleRateLimit, throttlingBurstLimit: props.throttleBurstLimit },
      ]),
    ),
    // Errors only: INFO with data tracing would log request headers, bearer tokens included.
    loggingLevel: apigw.MethodLoggingLevel.ERROR,
    dataTraceEnabled: false,
    accessLogDestination: new apigw.LogGroupLogDestination(accessLogs),
    accessLogFormat: accessLogFormat(),
  });
}
