/** Logs and metrics as local mode emits them: a request's line, a vote counted, a job run, a platform failure; no token or message text. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readableLine } from '#infra/local/console-log.js';
import { SERVICE_TOKEN, ok, snowflake, startTestService, type TestService } from '#test/helpers/local.js';
import { observe } from '#test/helpers/observe.js';
import { sandboxOf } from '#test/helpers/sandbox.js';
import { pollSource } from '#functions/socials/polling.js';
import { castVote, createPoll, eventually, pollGuild, voteBody } from '../polls/helpers.js';
import { socialGuild, sourcesOf, unique, watch } from '../socials/helpers.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.stop());

describe('logs and metrics in local mode', () => {
  it('a vote writes its request line, counts one vote and one 2xx polls request', async () => {
    const where = await pollGuild(service);
    const poll = await createPoll(service, where);
    const member = snowflake();
    const seen = observe();
    const res = await castVote(service, member, voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 1 }));
    seen.stop();

    expect(res.status).toBe(200);
    expect(seen.events('request')).toEqual([
      expect.objectContaining({
        level: 'info',
        route: 'polls.vote',
        guild_id: where.guild,
        actor_id: member,
        status: 200,
        duration_ms: expect.any(Number),
        request_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        cold_start: expect.any(Boolean),
      }),
    ]);
    expect(seen.total('Votes')).toBe(1);
    expect(seen.total('Requests', { Module: 'polls', StatusClass: '2xx' })).toBe(1);
    expect(seen.total('Errors')).toBe(0);
    expect(readableLine(seen.events('request')[0]!)).toMatch(
      new RegExp(`^\\d\\d:\\d\\d:\\d\\d POST /modules/polls/entry/vote 200 \\d+ms polls\\.vote guild=${where.guild} actor=${member}`),
    );
  });

  it('never logs a token or the text of a message, even when the platform refuses the interaction answer', async () => {
    const where = await pollGuild(service);
    const sandbox = sandboxOf(service);
    const interactionToken = `interaction-token-${snowflake()}`;
    const question = `Which secret door ${snowflake()}?`;
    const seen = observe();
    const poll = await createPoll(service, where, { question, description: 'whispered words of a member' });
    // The member is answered through the interaction webhook; the platform refuses it, so the failure is logged.
    await sandbox.fault({ path: 'webhooks|interactions', status: 404, code: 10015, message: 'Unknown Webhook', times: 1 });
    const res = await castVote(
      service,
      snowflake(),
      voteBody(where.guild, where.channel, { poll_id: poll.poll_id, answer_id: 2, application_id: snowflake(), token: interactionToken }),
    );
    await sandbox.clearFaults();
    seen.stop();

    expect(res.status).toBe(200);
    expect(seen.events('platform call failed')).toContainEqual(expect.objectContaining({ status: 404, code: 10015 }));
    const written = [...seen.logs.map((event) => JSON.stringify(event)), ...seen.logs.map((event) => readableLine(event))].join('\n');
    for (const secret of [interactionToken, SERVICE_TOKEN, 'sandbox-bot-token', question, 'whispered words', 'Cafe']) {
      expect(written).not.toContain(secret);
    }
  });

  it("never logs a feed URL's credentials (its query or userinfo), nor shows them in an error, when the feed fails", async () => {
    const sources = sourcesOf(service);
    /** A sandbox feed's URL with a user and password and a token in its query. */
    const secretUrl = async (password: string, token: string) => {
      const url = new URL(await sources.feed(unique('secretfeed')));
      url.username = 'feed-user-5e';
      url.password = password;
      url.searchParams.set('token', token);
      return url.toString();
    };
    const watched = await secretUrl('feed-pass-3a', 'feed-token-1f');
    const guild = await socialGuild(service);
    ok(await watch(service, guild, 'rss', watched, await sandboxOf(service).channelIn(guild)));
    const seen = observe();
    await sources.fault({ source: 'feed', mode: 'status', status: 500, times: 1 });
    await pollSource('rss', watched);
    // A create whose check fails: the 422 names the feed without them too.
    await sources.fault({ source: 'feed', mode: 'status', status: 503, times: 1 });
    const refused = await watch(service, guild, 'rss', await secretUrl('feed-pass-7b', 'feed-token-2c'), await sandboxOf(service).channelIn(guild));
    seen.stop();

    expect(refused.status).toBe(422);
    const origin = new URL(watched).origin;
    expect(seen.events('source failed')).toEqual([
      expect.objectContaining({ kind: 'rss', source_key: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), source_origin: origin, failures: 1 }),
    ]);
    const written = [...seen.logs.map((event) => JSON.stringify(event)), ...seen.logs.map((event) => readableLine(event)), refused.text].join('\n');
    for (const secret of ['feed-user-5e', 'feed-pass-3a', 'feed-token-1f', 'feed-pass-7b', 'feed-token-2c']) expect(written).not.toContain(secret);
  });

  it('logs what the gateway answers itself (a refused credential), without the credential', async () => {
    const seen = observe();
    const res = await service.call('GET', '/modules/polls/status', { query: { guild_id: snowflake() }, token: 'not-the-token-7c1d' });
    seen.stop();
    expect(res.status).toBe(401);
    expect(seen.events('request')).toEqual([
      expect.objectContaining({ route: 'gateway', method: 'GET', path: '/modules/polls/status', status: 401, duration_ms: expect.any(Number) }),
    ]);
    expect(JSON.stringify(seen.logs)).not.toContain('not-the-token-7c1d');
  });

  it('a giveaway refresh whose message is gone logs the platform 404 and the job run', async () => {
    const guild = snowflake();
    ok(await service.call('POST', '/modules/giveaways/enable', { body: { guild_id: guild } }));
    const channel = await sandboxOf(service).channelIn(guild);
    const giveaway = ok(
      await service.call('POST', '/modules/giveaways/entries', {
        body: { guild_id: guild, channel_id: channel, giveaway_owner_id: snowflake(), prize: 'A mug', winner_count: 1, end_time: '1h', description: 'Quick' },
      }),
    ).entry;
    const seen = observe();
    await sandboxOf(service).deleteChannel(channel);
    const entered = await service.call('POST', `/modules/giveaways/entries/${giveaway.entry_id}/enter`, {
      body: { guild_id: guild },
      headers: { 'x-acting-user-id': snowflake() },
    });
    expect(entered.status).toBe(200);
    const run = await eventually(
      async () => seen.events('job').find((event) => event.job === 'giveaways.refresh' && event.guild_id === guild),
      15_000,
      'the refresh job run',
    );
    seen.stop();

    expect(run).toMatchObject({ outcome: 'done', attempt: 1, duration_ms: expect.any(Number), key: expect.stringContaining(giveaway.entry_id) });
    expect(seen.events('platform call failed')).toContainEqual(
      expect.objectContaining({ call: 'PATCH /channels/{id}/messages/{id}', status: 404, code: 10003 }),
    );
    expect(seen.total('Entries')).toBe(1);
    expect(seen.total('JobsRun', { Job: 'giveaways.refresh' })).toBeGreaterThanOrEqual(1);
    expect(readableLine(run)).toMatch(/ job giveaways\.refresh done attempt 1 \d+ms guild=/);
  });
});
