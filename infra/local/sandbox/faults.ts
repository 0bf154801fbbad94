/**
 * Injected failures: the next `times` requests matching a method and a path
 * pattern get a chosen answer (a 429 with `retry_after`, a 500, a 403 ...)
 * instead of the real one. With `after_effect` the request is carried out
 * first (the message posted, the role granted) and only its answer is
 * replaced: the platform failing after it stored the effect.
 */
import { STATUS_CODES } from 'node:http';
import { FormErrors } from './errors.js';
import type { Reply } from './router.js';
import type { Fault, SandboxState } from './state.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Adds a fault from a control request body:
 * `{method?, path (regex source), status, times = 1, retry_after?, body?, code?, message?, delay_ms?, after_effect?}`.
 * `code`/`message` are a shorthand for `body: {message, code}`.
 */
export function addFault(state: SandboxState, input: unknown): Fault {
  const b = isObject(input) ? input : {};
  const errors = new FormErrors();
  let path = /$^/;
  if (typeof b.path !== 'string') errors.add(['path'], 'BASE_TYPE_REQUIRED', 'A regular expression source is required.');
  else {
    try {
      path = new RegExp(b.path);
    } catch {
      errors.add(['path'], 'REGEX_INVALID', 'Not a valid regular expression.');
    }
  }
  const status = b.status;
  if (!Number.isInteger(status) || (status as number) < 400 || (status as number) > 599)
    errors.add(['status'], 'NUMBER_TYPE_MAX', 'Must be an HTTP error status (400..599).');
  const times = b.times ?? 1;
  if (!Number.isInteger(times) || (times as number) < 1) errors.add(['times'], 'NUMBER_TYPE_MIN', 'Must be a positive integer.');
  for (const field of ['retry_after', 'delay_ms'] as const) {
    if (b[field] !== undefined && (typeof b[field] !== 'number' || b[field] < 0)) errors.add([field], 'NUMBER_TYPE_MIN', 'Must be a number >= 0.');
  }
  if (b.after_effect !== undefined && typeof b.after_effect !== 'boolean') errors.add(['after_effect'], 'BASE_TYPE_BOOLEAN', 'Must be a boolean.');
  errors.throwIfAny();

  const fault: Fault = { id: state.nextFaultId++, path, status: status as number, times: times as number };
  if (typeof b.method === 'string') fault.method = b.method.toUpperCase();
  if (typeof b.retry_after === 'number') fault.retry_after = b.retry_after;
  if (typeof b.delay_ms === 'number') fault.delay_ms = b.delay_ms;
  if (b.after_effect === true) fault.after_effect = true;
  if (b.body !== undefined) fault.body = b.body;
  else if (b.code !== undefined || b.message !== undefined) fault.body = { message: b.message ?? STATUS_CODES[status as number], code: b.code ?? 0 };
  state.faults.push(fault);
  return fault;
}

/**
 * The first fault matching this request, used up by one: the path pattern
 * is tried on the raw path and on its decoded form (emojis).
 */
export function takeFault(state: SandboxState, method: string, rawPath: string): Fault | undefined {
  let decoded = rawPath;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    // keep the raw path
  }
  const fault = state.faults.find((f) => (!f.method || f.method === method) && (f.path.test(rawPath) || f.path.test(decoded)));
  if (!fault) return undefined;
  fault.times -= 1;
  if (fault.times <= 0) state.faults.splice(state.faults.indexOf(fault), 1);
  return fault;
}

/** The answer a fault gives: its body, or the platform's usual one for the status. */
export function faultReply(fault: Fault): Reply {
  if (fault.status === 429) {
    const retryAfter = fault.retry_after ?? 1;
    return {
      status: 429,
      headers: { 'Retry-After': String(retryAfter), 'X-RateLimit-Scope': 'user' },
      body: fault.body ?? { message: 'You are being rate limited.', retry_after: retryAfter, global: false },
    };
  }
  return { status: fault.status, body: fault.body ?? { message: `${fault.status}: ${STATUS_CODES[fault.status] ?? 'Error'}`, code: 0 } };
}

/** A fault as JSON (the pattern as its source). */
export function faultView(fault: Fault): Record<string, unknown> {
  return { ...fault, path: fault.path.source };
}
