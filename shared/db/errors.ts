/** DynamoDB failures that mean "the table is unreachable or throttled", answered as 503. */
const UNAVAILABLE = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'ServiceUnavailable',
  'InternalServerError',
  'TimeoutError',
  'NetworkingError',
]);

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { name?: string; code?: string; $metadata?: unknown; cause?: { code?: string } };
  if (e.name && UNAVAILABLE.has(e.name) && ('$metadata' in e || e.name === 'TimeoutError')) return true;
  return Boolean((e.code && NETWORK_CODES.has(e.code)) || (e.cause?.code && NETWORK_CODES.has(e.cause.code)));
}

/** A conditional write lost its condition: the caller decides what that means. */
export function isConditionFailed(error: unknown): boolean {
  return Boolean(error && typeof error === 'object' && (error as { name?: string }).name === 'ConditionalCheckFailedException');
}

/**
 * Runs one conditional write: true when it was written, false when its
 * condition did not hold. The one meaning of a refused condition: an
 * entity's put/update/delete answer through it, so stores need not call it.
 */
export async function conditional(write: () => Promise<unknown>): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (error) {
    if (isConditionFailed(error)) return false;
    throw error;
  }
}
