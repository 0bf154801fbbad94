import { Aws, Duration } from 'aws-cdk-lib';
import type * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';

/** What every function of one module shares: role, log group, environment and sizing. */
export interface FunctionRuntime {
  role: iam.IRole;
  logGroup: logs.ILogGroup;
  environment: Readonly<Record<string, string>>;
  memorySize: number;
  timeout: Duration;
}

/** One function: its code, entry point and description, on a module's shared runtime. */
export interface ServiceFunctionProps {
  runtime: FunctionRuntime;
  code: lambda.Code;
  /** `index.<export>` of the bundle; route handlers and consumers export `handler`. */
  handler?: string;
  description: string;
  /** Per-function additions to the shared environment. */
  environment?: Readonly<Record<string, string>>;
}

/**
 * A Lambda as this service runs them: Node.js 24 on arm64 (cheaper per ms
 * than x86 and at least as fast for this workload), JSON logs into the
 * module's shared log group (Lambda's own lines at WARN and above only),
 * the module's shared role.
 */
export function serviceFunction(scope: Construct, id: string, props: ServiceFunctionProps): lambda.Function {
  return new lambda.Function(scope, id, {
    runtime: lambda.Runtime.NODEJS_24_X,
    architecture: lambda.Architecture.ARM_64,
    code: props.code,
    handler: props.handler ?? 'index.handler',
    description: props.description.slice(0, 256),
    role: props.runtime.role,
    logGroup: props.runtime.logGroup,
    loggingFormat: lambda.LoggingFormat.JSON,
    // Lambda's START, END and REPORT lines (some 350 bytes an invocation, more than a vote's own request line) are left out:
    // the function's request or job line says its duration and cold start, Lambda's metrics the rest (issue 45 part 5).
    systemLogLevelV2: lambda.SystemLogLevel.WARN,
    memorySize: props.runtime.memorySize,
    timeout: props.runtime.timeout,
    environment: { ...props.runtime.environment, ...props.environment },
  });
}

/** The URI API Gateway uses to invoke a Lambda (for Lambda proxy integrations and authorizers). */
export function lambdaInvocationUri(fn: lambda.IFunction): string {
  return `arn:${Aws.PARTITION}:apigateway:${Aws.REGION}:lambda:path/2015-03-31/functions/${fn.functionArn}/invocations`;
}

/** Lambda's limit; a longer timeout is pointless behind API Gateway, which answers 504 after 29 s. */
export const API_GATEWAY_TIMEOUT = Duration.seconds(29);
