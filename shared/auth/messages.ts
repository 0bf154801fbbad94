/**
 * The reasons of the authorizer's two refusals. Local mode answers them, and
 * the CDK gateway responses carry the same text, so a client sees one wording
 * in both.
 */
export const UNAUTHORIZED_REASON = "Send 'Authorization: Bearer <token>' with the service token or an API key of the guild; no valid credentials were given.";
export const INTERNAL_REASON = 'This operation is internal: only the service (bot) token may call it, not a guild API key.';
/** A dashboard change without its session's CSRF token (behaviour §19). */
export const CSRF_REASON =
  "A change made with a dashboard session must carry the session's CSRF token in the 'X-CSRF-Token' header; it was missing or wrong, so nothing was changed.";

const guildKeyRate = (rate: number, burst: number) => `Each guild API key may send ${rate} requests a second (bursts of ${burst})`;
const RETRY = 'retry after the number of seconds in Retry-After.';

/** What a guild API key past its own rate (behaviour §13) is told in local mode, which throttles nothing else. */
export const guildKeyThrottledReason = (rate: number, burst: number) => `${guildKeyRate(rate, burst)} and this one sent more; ${RETRY}`;

/**
 * What any throttled caller is told in AWS, where one gateway response answers
 * for every usage plan and the public methods alike.
 */
export const throttledReason = (limits: { guildKeyRate: number; guildKeyBurst: number; rateLimit: number; burstLimit: number }) =>
  `${guildKeyRate(limits.guildKeyRate, limits.guildKeyBurst)}, the service token and each public route ${limits.rateLimit} (bursts of ${limits.burstLimit}); this caller sent more, ${RETRY}`;

/** A guild key minted a moment ago whose API Gateway key is not in force yet (shared/auth/usage-keys.ts). */
export const USAGE_KEY_PENDING_REASON = `This API key's rate is still being set up (it is new or was just used for the first time); ${RETRY}`;
