import * as apigw from 'aws-cdk-lib/aws-apigateway';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import type { Route } from '#shared/http/route.js';
import { resourcePathOf } from '../plan.js';
import { type FunctionRuntime, lambdaInvocationUri, serviceFunction } from './service-function.js';
import { allowApiInvoke } from './api-invoke-permission.js';

/** One route and what its function and method are wired to. */
export interface RouteEndpointProps {
  route: Route;
  /** The API resource of the route's path (it may live in another stack). */
  resource: apigw.IResource;
  code: lambda.Code;
  runtime: FunctionRuntime;
  /** The REQUEST authorizer; omitted for public routes. */
  authorizer?: apigw.IAuthorizer;
  restApiId: string;
  /** The stage the invoke permission is scoped to. */
  stageName: string;
}

/**
 * One route: its function, the single permission letting API Gateway invoke
 * it (scoped to this stage, method and path), and its API method. The
 * construct ID is the route ID, so CloudFormation logical IDs follow the
 * route and not its position in a list.
 */
export class RouteEndpoint extends Construct {
  readonly route: Route;
  readonly function: lambda.Function;
  readonly method: apigw.Method;

  constructor(scope: Construct, props: RouteEndpointProps) {
    const { route } = props;
    super(scope, route.id);
    this.route = route;
    this.function = serviceFunction(this, 'Function', {
      runtime: props.runtime,
      code: props.code,
      description: `${route.id}: ${route.method} ${route.path}`,
    });

    const path = resourcePathOf(route.path).replace(/\{[^}]*\}/g, '*');
    allowApiInvoke(this.function, props.restApiId, `${props.stageName}/${route.method}${path}`);

    this.method = new apigw.Method(this, 'Method', {
      resource: props.resource,
      httpMethod: route.method,
      integration: new apigw.Integration({
        type: apigw.IntegrationType.AWS_PROXY,
        integrationHttpMethod: 'POST',
        uri: lambdaInvocationUri(this.function),
      }),
      options: {
        operationName: route.id,
        authorizationType: props.authorizer ? apigw.AuthorizationType.CUSTOM : apigw.AuthorizationType.NONE,
        authorizer: props.authorizer,
        // Credentialed calls are counted against the usage-plan key the authorizer names (usage-plans.ts).
        apiKeyRequired: Boolean(props.authorizer),
      },
    });
  }
}
