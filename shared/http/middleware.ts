import type { MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { AppError, databaseFailed } from '../errors.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { errorResponse } from './envelope.js';
import { checkBodySize } from './limits.js';

export type Mw = MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context>;

/**
 * Outermost: every failure becomes the error envelope. AppErrors speak for
 * themselves; an unreachable table is a 503; anything else is logged with the
 * request ID and answered as a 500 that names that ID and nothing internal.
 */
export function errorEnvelope(): Mw {
  return {
    name: 'errorEnvelope',
    onError: (request) => {
      const error = request.error;
      if (error instanceof AppError) {
        request.response = errorResponse(error);
        return;
      }
      if (isDatabaseUnavailable(error)) {
        console.error(JSON.stringify({ level: 'error', msg: 'database unavailable', requestId: request.context.awsRequestId, error: String(error) }));
        request.response = errorResponse(databaseFailed('The table could not be reached after retries; try again shortly.'));
        return;
      }
      console.error(JSON.stringify({ level: 'error', msg: 'unexpected error', requestId: request.context.awsRequestId, error: error instanceof Error ? error.stack : String(error) }));
      request.response = errorResponse(
        new AppError('InternalServerError', `Something unexpected went wrong; it was logged with request ID ${request.context.awsRequestId}.`),
      );
    },
  };
}

/** 413 before anything reads the body. */
export function bodyLimit(): Mw {
  return {
    name: 'bodyLimit',
    before: (request) => checkBodySize(request.event.body, request.event.isBase64Encoded),
  };
}
