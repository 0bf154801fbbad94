/**
 * `GET /_sandbox/events`: the change notices the sandbox page follows. A
 * notice (the state's revision) comes at once, then one after each change,
 * whether made through a control route or by the bot's REST calls.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '#infra/local/sandbox/server.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

/** Reads server-sent events from the stream, one at a time. */
function eventsOf(body: ReadableStream<Uint8Array>) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return async function next(): Promise<{ event: string; data: unknown }> {
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const lines = block.split('\n').filter((line) => !line.startsWith(':') && !line.startsWith('retry:'));
        if (lines.length === 0) continue;
        const field = (name: string) => lines.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
        return { event: field('event') ?? 'message', data: JSON.parse(field('data') ?? 'null') };
      }
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended');
      buffer += value;
    }
  };
}

describe('the sandbox change notices', () => {
  it('sends the revision at once, then a notice after a control route and after a bot call', async () => {
    const controller = new AbortController();
    const response = await fetch(`${sandbox.origin}/_sandbox/events`, { signal: controller.signal });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const next = eventsOf(response.body!);
    const first = (await next()) as { event: string; data: { revision: number } };
    expect(first.event).toBe('change');

    await fetch(`${sandbox.origin}/_sandbox/channels/200000000000000041`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ guild_id: '300000000000000041', name: 'general' }),
    });
    const second = (await next()) as { event: string; data: { revision: number } };
    expect(second).toEqual({ event: 'change', data: { revision: first.data.revision + 1 } });

    await fetch(`${sandbox.url}/channels/200000000000000041/messages`, {
      method: 'POST',
      headers: { Authorization: 'Bot x', 'Content-Type': 'application/json' },
      body: JSON.stringify({ content: 'hello' }),
    });
    const third = (await next()) as { event: string; data: { revision: number } };
    expect(third.data.revision).toBe(second.data.revision + 1);
    controller.abort();
  });
});
