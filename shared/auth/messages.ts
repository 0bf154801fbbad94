/**
 * The reasons of the authorizer's two refusals. Local mode answers them, and
 * the CDK gateway responses carry the same text, so a client sees one wording
 * in both.
 */
export const UNAUTHORIZED_REASON =
  "Send 'Authorization: Bearer <token>' with the service token or an API key of the guild; no valid credentials were given.";
export const INTERNAL_REASON = 'This operation is internal: only the service (bot) token may call it, not a guild API key.';

/** What a guild API key past its own rate (CONTRACT 13) is told, in local mode and in AWS. */
export const guildKeyThrottledReason = (rate: number, burst: number) =>
  `Each guild API key may send ${rate} requests a second (bursts of ${burst}) and this one sent more; retry after the number of seconds in Retry-After.`;
