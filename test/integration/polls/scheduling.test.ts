import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocal } from '#infra/local/start.js';
import { dueKeyOf } from '#functions/polls/keys.js';
import { bodyText, SERVICE_TOKEN, type TestService, startTestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { type PollRecord, createPoll, eventually, getPoll, messageOf, pollBody, pollGuild } from './helpers.js';

/** A test service over a table on disk, so it can be stopped and started again. */
async function startOnDisk(dataDir: string): Promise<TestService> {
  const service = await startLocal({ port: 0, dataDir, serviceToken: SERVICE_TOKEN, printLogs: false });
  const call: TestService['call'] = async (method, path, options = {}) => {
    const url = new URL(service.url + path);
    for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, String(value));
    const res = await fetch(url, {
      method,
      headers: { authorization: `Bearer ${SERVICE_TOKEN}`, 'content-type': 'application/json', ...options.headers },
      body: bodyText(options),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null, text };
  };
  return Object.assign(service, { call });
}

describe('a restart of local mode with work pending', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'polls-restart-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('still closes a poll whose end came while the service was down, and deletes it later', async () => {
    let service = await startOnDisk(dataDir);
    const where = await pollGuild(service);
    await service.call('PUT', '/modules/polls/settings', {
      body: { guild_id: where.guild, save_duration_timeout: 2, delete_ended_platform_polls: false, delete_ended_service_polls: false },
    });
    const res = await service.call('POST', '/modules/polls/entries', { looseBody: pollBody(where, { poll_duration: '3s' }) });
    expect(res.status).toBe(200);
    const poll = res.body.data.poll as PollRecord;
    // The close was already handed to the in-process queue, which the stop loses.
    await service.stop();
    await new Promise((resolve) => setTimeout(resolve, 3500));

    service = await startOnDisk(dataDir);
    try {
      const closed = await eventually(
        async () => {
          const now = (await getPoll(service, where.guild, poll.poll_id)).body.data?.poll as PollRecord | undefined;
          return now?.status === 'closed' ? now : undefined;
        },
        30_000,
        'the poll to close after the restart',
      );
      expect(closed.delete_at).not.toBeNull();
      await eventually(async () => (await getPoll(service, where.guild, poll.poll_id)).status === 404, 30_000, 'the poll to be deleted after the restart');
    } finally {
      await service.stop();
    }
  }, 90000);
});

describe('due work in local mode', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.stop());

  it('edits the results once when the close message is delivered several times at once', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where, { poll_duration: '2s' });
    const { queue } = service.jobs!.queues.get('polls.close')!;
    const duplicate = JSON.stringify({ job: 'polls.close', key: dueKeyOf(where.guild, poll.poll_id), due_at: Date.parse(poll.end_time) });
    for (let i = 0; i < 4; i++) queue.send(duplicate, 2);
    await eventually(async () => (await getPoll(service, where.guild, poll.poll_id)).body.data.poll.edited_with_results, 15_000, 'the close');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const edits = (await sandboxOf(service).requests()).filter((r) => r.method === 'PATCH' && r.path.endsWith(`/messages/${poll.message_id}`));
    expect(edits).toHaveLength(1);
    expect((await messageOf(service, poll))!.embeds[0]!.description).toContain('final results');
  }, 60000);

  it('retries a close whose consumer failed, and ends with the results', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where, { poll_duration: '2s' });
    // Every attempt of the first delivery fails (the client retries 3 times).
    await sandboxOf(service).fault({ method: 'PATCH', path: `/messages/${poll.message_id}$`, status: 500, times: 3 });
    await eventually(async () => (await getPoll(service, where.guild, poll.poll_id)).body.data.poll.edited_with_results, 25_000, 'the retried close');
    expect((await messageOf(service, poll))!.embeds[0]!.description).toContain('final results');
    expect(service.jobs!.queues.get('polls.close')!.deadLetters.size).toBe(0);
  }, 60000);

  it('does not let a poison message hold up other work: it is reported failed and retried on its own', async () => {
    const where = await pollGuild(service);
    const { queue } = service.jobs!.queues.get('polls.close')!;
    queue.send('{"not":"due work"}');
    const poll = await createPoll(service, where, { poll_duration: '1s' });
    await eventually(async () => (await getPoll(service, where.guild, poll.poll_id)).body.data.poll.status === 'closed', 15_000, 'the close');
    const poison = queue.list().find((m) => m.body === '{"not":"due work"}');
    expect(poison?.receiveCount).toBeGreaterThanOrEqual(1);
  }, 60000);
});
