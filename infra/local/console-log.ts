import { routes } from '#functions/routes.js';
import type { LogEvent } from '#shared/observe/log.js';

/** Each route's method and path by its id: a handler's request event names only the route (its id says both). */
const routeLines = new Map(routes.map((route) => [route.id, `${route.method} ${route.path}`]));

/**
 * Local mode's console: each log event as one readable line, the time
 * first, instead of the JSON Lambda writes. A request reads
 * `12:01:02 POST /modules/polls/entry/vote 200 12ms polls.vote guild=… actor=…`,
 * a job run `12:01:03 job giveaways.refresh retry attempt 1 8ms guild=… key=…`,
 * a failed platform call `12:01:03 platform PATCH /channels/{id}/messages/{id} 404 code 10008: …`.
 */
export function readableLine(event: LogEvent, at = new Date()): string {
  const time = at.toTimeString().slice(0, 8);
  const e = event as LogEvent & Record<string, unknown>;
  const pairs = (names: string[]) =>
    names
      .filter((name) => e[name] !== undefined && e[name] !== null)
      .map((name) => `${name.replace(/_id$/, '')}=${String(e[name])}`)
      .join(' ');
  const tail = (error: unknown) => (error ? `: ${String(error)}` : '');
  let text: string;
  switch (event.msg) {
    case 'request':
      // Local mode's own answers (route `gateway`) say the method and path they refused; a handler's names its route.
      text = `${e.method === undefined ? (routeLines.get(String(e.route)) ?? e.route) : `${e.method} ${e.path}`} ${e.status} ${e.duration_ms}ms ${e.route} ${pairs(['guild_id', 'actor_id'])}${e.cold_start ? ' cold' : ''}`;
      break;
    case 'job':
      text = `job ${e.job} ${e.outcome} attempt ${e.attempt} ${e.duration_ms}ms ${pairs(['guild_id', 'key'])}${tail(e.error)}`;
      break;
    case 'platform call failed':
      text = `platform ${e.call} ${e.status ?? 'unreachable'}${e.code === null || e.code === undefined ? '' : ` code ${e.code}`}${tail(e.error)}`;
      break;
    case 'retry':
      text = `retry ${e.call} ${e.status ?? e.error} attempt ${e.attempt} in ${e.wait_ms}ms`;
      break;
    default: {
      const { level: _level, msg, ...rest } = e;
      text = `${msg} ${pairs(Object.keys(rest))}`;
    }
  }
  const level = event.level === 'info' ? '' : `${event.level.toUpperCase()} `;
  return `${time} ${level}${text.trimEnd()}`;
}

/** Prints each event as its readable line. */
export function printReadable(event: LogEvent): void {
  process.stdout.write(`${readableLine(event)}\n`);
}
