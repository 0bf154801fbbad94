/**
 * `GET /_sandbox/events`: a server-sent event stream that tells the page the
 * sandbox state changed, so it fetches the state once per change instead of
 * polling. A notice carries only the state's revision; the page diffs what
 * it fetched against what it shows.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Comment lines keep an idle stream from being closed by anything in between (and find dead clients). */
const KEEP_ALIVE_MS = 15_000;

export interface ChangeFeed {
  /** The state changed: notices go out once the current turn of the event loop is done, one for a burst of changes. */
  changed(): void;
  /** How many changes so far (the page is rendered with it, so it knows whether the first notice is news). */
  revision(): number;
  /** Streams notices to this request until it goes away; the first notice (the revision now) is sent at once. */
  subscribe(req: IncomingMessage, res: ServerResponse): void;
  close(): void;
}

export function createChangeFeed(): ChangeFeed {
  const clients = new Set<ServerResponse>();
  let revision = 0;
  let scheduled = false;
  const notice = () => `event: change\ndata: ${JSON.stringify({ revision })}\n\n`;
  const keepAlive = setInterval(() => {
    for (const res of clients) res.write(':\n\n');
  }, KEEP_ALIVE_MS);
  keepAlive.unref();
  return {
    changed() {
      revision += 1;
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        const text = notice();
        for (const res of clients) res.write(text);
      });
    },
    revision: () => revision,
    subscribe(req, res) {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
      // A reconnecting page waits a second, not the browser's default three.
      res.write(`retry: 1000\n${notice()}`);
      clients.add(res);
      req.on('close', () => clients.delete(res));
    },
    close() {
      clearInterval(keepAlive);
      for (const res of clients) res.end();
      clients.clear();
    },
  };
}
