/**
 * A raw gateway client for tests: a `ws` socket that keeps every payload it
 * received, waits for the next one matching what a test expects, and tells
 * how the socket was closed.
 */
import { type GatewayDispatchEvents, type GatewayDispatchPayload, GatewayOpcodes, type GatewayReceivePayload } from 'discord-api-types/v10';
import WebSocket from 'ws';

/** A dispatch of one event, its data typed. */
export type DispatchOf<T extends GatewayDispatchEvents> = Extract<GatewayDispatchPayload, { t: T }>;

export interface RawGateway {
  /** Every payload received, oldest first. */
  received: GatewayReceivePayload[];
  send(payload: unknown): void;
  /** The next payload (from now or already received and not yet taken) that matches; rejects after `timeoutMs`. */
  next(match: (payload: GatewayReceivePayload) => boolean, timeoutMs?: number): Promise<GatewayReceivePayload>;
  /** The next dispatch of an event. */
  dispatch<T extends GatewayDispatchEvents>(t: T, match?: (d: DispatchOf<T>['d']) => boolean, timeoutMs?: number): Promise<DispatchOf<T>>;
  /** True when no dispatch of the event (matching) arrives in the next `ms`: for what must not be sent. */
  none<T extends GatewayDispatchEvents>(t: T, ms: number, match?: (d: DispatchOf<T>['d']) => boolean): Promise<boolean>;
  /** The close code, once closed. */
  closed: Promise<number>;
  close(code?: number): void;
}

/** Opens a socket to the gateway at `url` (its `?v=10&encoding=json` added) and waits until it is open. */
export async function connectGateway(url: string): Promise<RawGateway> {
  const socket = new WebSocket(`${url}?v=10&encoding=json`);
  const received: GatewayReceivePayload[] = [];
  let taken = 0;
  const waiters = new Set<() => void>();
  socket.on('message', (data) => {
    received.push(JSON.parse(data.toString()) as GatewayReceivePayload);
    for (const wake of waiters) wake();
  });
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });

  const next: RawGateway['next'] = (match, timeoutMs = 5000) =>
    new Promise((resolve, reject) => {
      const look = () => {
        const index = received.findIndex((p, i) => i >= taken && match(p));
        if (index < 0) return false;
        taken = index + 1;
        resolve(received[index]!);
        return true;
      };
      if (look()) return;
      const wake = () => {
        if (look()) done();
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no matching gateway payload within ${timeoutMs} ms; received ${JSON.stringify(received.map((p) => p.t ?? p.op))}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        waiters.delete(wake);
      };
      waiters.add(wake);
    });

  const isDispatch =
    <T extends GatewayDispatchEvents>(t: T, match?: (d: DispatchOf<T>['d']) => boolean) =>
    (p: GatewayReceivePayload) =>
      p.op === GatewayOpcodes.Dispatch && p.t === t && (!match || match(p.d as DispatchOf<T>['d']));

  return {
    received,
    send: (payload) => socket.send(JSON.stringify(payload)),
    next,
    dispatch: (t, match, timeoutMs) => next(isDispatch(t, match), timeoutMs) as Promise<DispatchOf<typeof t>>,
    none: async (t, ms, match) => {
      const from = received.length;
      await new Promise((resolve) => setTimeout(resolve, ms));
      return !received.slice(from).some(isDispatch(t, match));
    },
    closed,
    close: (code = 1000) => socket.close(code),
  };
}

/** Connects and identifies with `token` and `intents`; answers the client once READY arrived. */
export async function identified(url: string, token: string, intents: number): Promise<RawGateway> {
  const gateway = await connectGateway(url);
  gateway.send({ op: GatewayOpcodes.Identify, d: { token, intents, properties: { os: 'linux', browser: 'test', device: 'test' } } });
  await gateway.next((p) => p.op === GatewayOpcodes.Dispatch && p.t === 'READY');
  return gateway;
}
