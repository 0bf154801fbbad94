import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dueKeyOf } from '#functions/polls/keys.js';
import { failed, ok, snowflake, type TestService, startTestService } from '#test/helpers/local.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import type { components } from '../../../clients/typescript/schema.js';
import { createPoll, eventually, getPoll, messageOf, pollGuild } from '../polls/helpers.js';

describe('parked work (behaviour §9.1)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service.stop());

  type Parked = components['schemas']['ParkedWork'];
  const parked = async () =>
    ok(await service.call('GET', '/jobs/parked', { query: { page_size: 100 } })) as { parked: Parked[]; page: number; page_size: number; total: number };

  it('lists a close that failed five times with its last error, and after the fault is gone a replay closes the poll once', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where, { poll_duration: '2s' });
    const sandbox = sandboxOf(service);
    // Every edit of the poll's message fails, whatever the client retries, until the fault is cleared.
    await sandbox.fault({ method: 'PATCH', path: `/messages/${poll.message_id}$`, status: 500, times: 1000 });
    const id = `polls.close:${dueKeyOf(where.guild, poll.poll_id)}`;
    const { deadLetters } = service.jobs!.queues.get('polls.close')!;

    const listed = await eventually(async () => (await parked()).parked.find((p) => p.id === id), 60_000, 'the close to be parked');
    expect(listed).toMatchObject({ id, job: 'polls.close', key: dueKeyOf(where.guild, poll.poll_id), guild_id: where.guild, attempts: 5 });
    expect(listed.last_error).toContain('The platform answered 500');
    expect(Date.parse(listed.parked_at)).toBeGreaterThan(Date.parse(poll.end_time));
    expect((await getPoll(service, where.guild, poll.poll_id)).body.data.poll.edited_with_results).toBe(false);
    // The queue moves the message to its dead-letter queue on the receive after the fifth.
    await eventually(async () => deadLetters.size === 1, 10_000, 'the message in the dead-letter queue');

    await sandbox.clearFaults();
    await sandbox.clearRequests();
    const replay = ok(await service.call('POST', '/jobs/parked/replay', { body: { id } }));
    expect(replay.replayed.map((p: { id: string }) => p.id)).toEqual([id]);
    expect(deadLetters.size).toBe(0);

    await eventually(async () => (await getPoll(service, where.guild, poll.poll_id)).body.data.poll.edited_with_results, 15_000, 'the replayed close');
    expect((await messageOf(service, poll))!.embeds[0]!.description).toContain('final results');
    const edits = (await sandbox.requests()).filter((r) => r.method === 'PATCH' && r.path.endsWith(`/messages/${poll.message_id}`));
    expect(edits).toHaveLength(1);
    expect((await parked()).parked.map((p) => p.id)).not.toContain(id);

    // Replayed already: nothing is parked under that id any more.
    failed(await service.call('POST', '/jobs/parked/replay', { body: { id } }), 404, 'NotFoundError');
  }, 120_000);

  it('answers the list paginated, and replays all with nothing parked as an empty list', async () => {
    const page = await parked();
    expect(page).toMatchObject({ page: 1, page_size: 100 });
    expect(page.total).toBe(page.parked.length);
    expect(ok(await service.call('POST', '/jobs/parked/replay', { body: { all: true } })).replayed).toEqual([]);
    failed(await service.call('GET', '/jobs/parked', { query: { page_size: 101 } }), 422, 'Unprocessable Entity');
  });

  it('refuses a replay naming neither or both, and changes nothing', async () => {
    for (const body of [{}, { id: 'polls.close:1#2', all: true }]) {
      const message = failed(await service.call('POST', '/jobs/parked/replay', { looseBody: body }), 422, 'Unprocessable Entity');
      expect(message).toContain("'all'");
    }
    failed(await service.call('POST', '/jobs/parked/replay', { looseBody: { all: 'yes' } }), 400, 'BadRequestError');
    failed(await service.call('POST', '/jobs/parked/replay', { body: { id: 'no-such-work' } }), 404, 'NotFoundError');
  });

  it("is the service token's only: a guild API key gets 403, no token 401", async () => {
    const guild = snowflake();
    const key = ok(await service.call('POST', '/auth/api-key', { body: { guild_id: guild } })).api_key.secret as string;
    failed(await service.call('GET', '/jobs/parked', { token: key }), 403, 'ForbiddenError');
    failed(await service.call('POST', '/jobs/parked/replay', { token: key, body: { all: true } }), 403, 'ForbiddenError');
    failed(await service.call('GET', '/jobs/parked', { token: null }), 401, 'UnauthorizedError');
  });
});
