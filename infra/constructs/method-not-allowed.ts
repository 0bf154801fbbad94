import * as apigw from 'aws-cdk-lib/aws-apigateway';
import { Construct } from 'constructs';
import { envelopeTemplate } from './gateway-responses.js';

/**
 * Content types the mock maps. A mock integration takes its status from the
 * mapped request; a request whose content type has no template would be
 * passed through unmapped and fail as a 500, so the common ones are listed.
 * (API Gateway treats a request without Content-Type as application/json.)
 */
const MAPPED_CONTENT_TYPES = [
  'application/json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'application/xml',
  'text/xml',
  'application/octet-stream',
  'text/html',
];

/** The path resource and the methods it serves. */
export interface MethodNotAllowedProps {
  resource: apigw.IResource;
  /** The methods the path serves: the `Allow` header and the message. */
  allowed: readonly string[];
  /**
   * For a path answering pages for a person (the verification link,
   * behaviour §13): the 405 page, HTML with `$context` variables, answered
   * as `text/html` instead of the envelope.
   */
  page?: string;
}

/**
 * The 405 of behaviour §3.2 for a known path: an `ANY` method with a MOCK
 * integration and no authorizer (405 is checked before credentials).
 * API Gateway prefers a path's specific methods over ANY, so this only
 * answers the methods the path does not have. Without it, API Gateway would
 * answer MISSING_AUTHENTICATION_TOKEN (our 404) for them.
 */
export class MethodNotAllowed extends Construct {
  readonly method: apigw.Method;

  constructor(scope: Construct, id: string, props: MethodNotAllowedProps) {
    super(scope, id);
    const allow = props.allowed.join(', ');
    const body =
      props.page ?? envelopeTemplate(405, 'MethodNotAllowedError', `Method Not Allowed! $context.httpMethod is not served on this path; use ${allow}.`);
    // The template is chosen by the mapped type; what the client sees is the Content-Type header set here.
    const pageHeaders: Record<string, string> = props.page
      ? {
          'method.response.header.Content-Type': "'text/html; charset=utf-8'",
          'method.response.header.Cache-Control': "'no-store'",
          'method.response.header.Referrer-Policy': "'no-referrer'",
        }
      : {};
    this.method = new apigw.Method(this, 'Any', {
      resource: props.resource,
      httpMethod: 'ANY',
      integration: new apigw.MockIntegration({
        passthroughBehavior: apigw.PassthroughBehavior.WHEN_NO_MATCH,
        requestTemplates: Object.fromEntries(MAPPED_CONTENT_TYPES.map((type) => [type, '{"statusCode": 405}'])),
        // No selection pattern: this response answers whatever the mock returns.
        integrationResponses: [
          {
            statusCode: '405',
            responseParameters: { 'method.response.header.Allow': `'${allow}'`, ...pageHeaders },
            responseTemplates: { 'application/json': body },
          },
        ],
      }),
      options: {
        operationName: 'method-not-allowed',
        authorizationType: apigw.AuthorizationType.NONE,
        methodResponses: [
          {
            statusCode: '405',
            responseParameters: { 'method.response.header.Allow': true, ...Object.fromEntries(Object.keys(pageHeaders).map((name) => [name, true])) },
          },
        ],
      },
    });
  }
}
