/** What every sandbox source shares: reading control bodies and answering JSON. */
import type { ServerResponse } from 'node:http';
import { invalidField } from '../errors.js';

export const fieldsOf = (body: unknown) => (body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {});

/** A non-empty string field of a control body; null when optional and absent. */
export const text = (body: unknown, name: string, required = true): string | null => {
  const value = fieldsOf(body)[name];
  if (typeof value === 'string' && value !== '') return value;
  if (!required && (value === undefined || value === null)) return null;
  throw invalidField([name], 'BASE_TYPE_REQUIRED', 'A non-empty string is required.');
};

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}
