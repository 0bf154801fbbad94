/**
 * Who is calling: the bot with the service token, or a dashboard with a guild
 * API key. The authorizer decides; the endpoint factory reads its verdict
 * from the request context (API Gateway in AWS, the local server locally).
 */
export type Caller =
  | { kind: 'service' }
  | { kind: 'guild'; guildId: string; keyId: string }
  /** A member signed in to the dashboard (behaviour §19): a guild key's reach, in the guilds they may configure. */
  | { kind: 'session'; sessionId: string; userId: string; guildIds: readonly string[] };

/** What the authorizer hands API Gateway as `context` (string values only). */
export type AuthorizerContext =
  | { caller: 'service' }
  | { caller: 'guild'; guild_id: string; key_id: string }
  | { caller: 'session'; session_id: string; user_id: string; guild_ids: string };

/** The context naming a caller (what {@link callerFromContext} reads back). */
export function contextOf(caller: Caller): AuthorizerContext {
  if (caller.kind === 'service') return { caller: 'service' };
  if (caller.kind === 'guild') return { caller: 'guild', guild_id: caller.guildId, key_id: caller.keyId };
  return { caller: 'session', session_id: caller.sessionId, user_id: caller.userId, guild_ids: caller.guildIds.join(',') };
}

/**
 * The caller the authorizer named: its context as the REST API passes it
 * (`requestContext.authorizer`), or as the HTTP API may nest a Lambda
 * authorizer's (`requestContext.authorizer.lambda`, the bot's door).
 */
export function callerFromContext(given: Record<string, unknown> | null | undefined): Caller | null {
  const nested = given?.lambda;
  const context = nested && typeof nested === 'object' ? (nested as Record<string, unknown>) : given;
  if (!context) return null;
  if (context.caller === 'service') return { kind: 'service' };
  if (context.caller === 'guild' && typeof context.guild_id === 'string' && typeof context.key_id === 'string') {
    return { kind: 'guild', guildId: context.guild_id, keyId: context.key_id };
  }
  // Only the authorizer writes a context, each value a string (contextOf); this is read in every function, so kept short.
  if (context.caller === 'session')
    return { kind: 'session', sessionId: `${context.session_id}`, userId: `${context.user_id}`, guildIds: `${context.guild_ids}`.split(',') };
  return null;
}
