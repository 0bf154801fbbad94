import { ArnFormat, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';

/**
 * Lets API Gateway invoke `fn` for one `execute-api` resource of the API
 * (`<stage>/<METHOD><path>` for a route, `authorizers/<id>` for the
 * authorizer). Written out instead of CDK's integration helpers, whose
 * permission ARNs read the stage object: the stage lives in the root stack
 * and depends on every nested stack, so referencing it would be a cycle.
 */
export function allowApiInvoke(fn: lambda.Function, restApiId: string, resourceName: string): void {
  fn.addPermission('ApiInvoke', {
    principal: new iam.ServicePrincipal('apigateway.amazonaws.com'),
    action: 'lambda:InvokeFunction',
    sourceArn: Stack.of(fn).formatArn({ service: 'execute-api', resource: restApiId, arnFormat: ArnFormat.SLASH_RESOURCE_NAME, resourceName }),
  });
}
