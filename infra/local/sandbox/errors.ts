/**
 * The platform's error answers, with the statuses, JSON codes and messages
 * the real API uses, so the client's error mapping is exercised for real.
 */

/** A platform error answer: thrown by a route, written as `{message, code, errors?}`. */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly errors?: unknown,
  ) {
    super(message);
    this.name = 'SandboxError';
  }

  /** The JSON body the platform sends. */
  toBody(): { message: string; code: number; errors?: unknown } {
    return this.errors === undefined ? { message: this.message, code: this.code } : { message: this.message, code: this.code, errors: this.errors };
  }
}

export const unauthorized = () => new SandboxError(401, 0, '401: Unauthorized');
export const routeNotFound = () => new SandboxError(404, 0, '404: Not Found');
export const methodNotAllowed = () => new SandboxError(405, 0, '405: Method Not Allowed');
export const invalidJson = () => new SandboxError(400, 50109, 'The request body contains invalid JSON.');
export const unknownChannel = () => new SandboxError(404, 10003, 'Unknown Channel');
export const unknownInvite = () => new SandboxError(404, 10006, 'Unknown Invite');
export const unknownMember = () => new SandboxError(404, 10007, 'Unknown Member');
export const unknownMessage = () => new SandboxError(404, 10008, 'Unknown Message');
export const unknownEmoji = () => new SandboxError(400, 10014, 'Unknown Emoji');
export const maxReactions = () => new SandboxError(400, 30010, 'Maximum number of reactions reached (20)');
export const cannotEditOthers = () => new SandboxError(403, 50005, 'Cannot edit a message authored by another user');
export const cannotMessageUser = () => new SandboxError(403, 50007, 'Cannot send messages to this user');
export const emptyMessage = () => new SandboxError(400, 50006, 'Cannot send an empty message');
export const missingPermissions = () => new SandboxError(403, 50013, 'Missing Permissions');
export const pollExpired = () => new SandboxError(400, 520001, 'Poll expired');
export const cannotEditPoll = () => new SandboxError(400, 520003, 'Cannot edit a poll message');
export const cannotExpireNonPoll = () => new SandboxError(400, 520006, 'Cannot expire a non-poll message');

/** Collects field complaints into the platform's "Invalid Form Body" tree (`{field: {_errors: [...]}}`). */
export class FormErrors {
  private readonly tree: Record<string, unknown> = {};
  private count = 0;

  add(path: (string | number)[], code: string, message: string): void {
    let node = this.tree;
    for (const key of path) {
      const next = (node[String(key)] ??= {}) as Record<string, unknown>;
      node = next;
    }
    ((node._errors ??= []) as unknown[]).push({ code, message });
    this.count += 1;
  }

  /** 400 Invalid Form Body (code 50035) with everything added so far. */
  toError(): SandboxError {
    return new SandboxError(400, 50035, 'Invalid Form Body', this.tree);
  }

  /** Throws {@link toError} when anything was added. */
  throwIfAny(): void {
    if (this.count > 0) throw this.toError();
  }
}

/** 400 Invalid Form Body for one field. */
export function invalidField(path: (string | number)[], code: string, message: string): SandboxError {
  const errors = new FormErrors();
  errors.add(path, code, message);
  return errors.toError();
}
