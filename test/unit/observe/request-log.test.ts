import { afterEach, describe, expect, it, vi } from 'vitest';
import { setMetricOutput } from '#shared/observe/emit.js';
import { jsonLines, log } from '#shared/observe/log.js';
import { METRIC_NAMESPACE } from '#shared/observe/metrics.js';
import { lambdaContext } from '#infra/local/lambda-context.js';
import { observe } from '#test/helpers/observe.js';
import { GUILD, MEMBER, broken, event, ok } from './vote-request.js';

afterEach(() => {
  delete process.env.LOG_LEVEL;
});

describe('the request log line', () => {
  it('names the route, guild, acting member, status, duration, request id and cold start', async () => {
    const seen = observe();
    const context = lambdaContext('polls.vote');
    const first = await ok(event({ guild_id: GUILD }, { 'X-Acting-User-Id': MEMBER }), context);
    await ok(event({ guild_id: GUILD }, { 'X-Acting-User-Id': MEMBER }), lambdaContext('polls.vote'));
    seen.stop();

    expect(first.statusCode).toBe(200);
    const [line, second] = seen.events('request');
    expect(line).toEqual({
      level: 'info',
      msg: 'request',
      route: 'polls.vote',
      guild_id: GUILD,
      actor_id: MEMBER,
      status: 200,
      duration_ms: expect.any(Number),
      request_id: context.awsRequestId,
      cold_start: true,
    });
    expect(second).toMatchObject({ cold_start: false });
  });

  it('is written for a refused request too, with its status and the guild it named', async () => {
    const seen = observe();
    const res = await ok(event({ guild_id: GUILD }), lambdaContext('polls.vote'));
    seen.stop();
    expect(res.statusCode).toBe(400);
    expect(seen.events('request')).toEqual([expect.objectContaining({ status: 400, guild_id: GUILD, actor_id: null })]);
  });

  it('counts a 5xx as a request and an error of its module and status class, and logs it at error', async () => {
    const seen = observe();
    const res = await broken(event({ guild_id: GUILD }), lambdaContext('polls.vote'));
    seen.stop();
    expect(res.statusCode).toBe(500);
    expect(seen.total('Requests', { Module: 'polls', StatusClass: '5xx' })).toBe(1);
    expect(seen.total('Errors', { Module: 'polls', StatusClass: '5xx' })).toBe(1);
    expect(seen.events('request')).toEqual([expect.objectContaining({ level: 'error', status: 500 })]);
    expect(seen.events('unexpected error')).toHaveLength(1);
  });

  it('writes the metrics as one embedded-metric-format line', async () => {
    const lines: string[] = [];
    const previous = setMetricOutput((line) => lines.push(line));
    try {
      await broken(event({ guild_id: GUILD }), lambdaContext('polls.vote'));
    } finally {
      setMetricOutput(previous);
    }
    expect(lines).toHaveLength(1);
    const emf = JSON.parse(lines[0]!);
    expect(emf).toMatchObject({ Module: 'polls', StatusClass: '5xx', Requests: 1, Errors: 1, RequestDuration: expect.any(Number) });
    expect(emf._aws.Timestamp).toEqual(expect.any(Number));
    expect(emf._aws.CloudWatchMetrics).toContainEqual({
      Namespace: METRIC_NAMESPACE,
      Dimensions: [['Module', 'StatusClass'], ['StatusClass']],
      Metrics: [{ Name: 'Errors', Unit: 'Count' }],
    });
  });

  it('is silenced by LOG_LEVEL=error while errors still show, and metrics still count', async () => {
    process.env.LOG_LEVEL = 'error';
    const seen = observe();
    await ok(event({ guild_id: GUILD }, { 'X-Acting-User-Id': MEMBER }), lambdaContext('polls.vote'));
    await broken(event({ guild_id: GUILD }), lambdaContext('polls.vote'));
    seen.stop();
    expect(seen.events('request').map((e) => e.status)).toEqual([500]);
    expect(seen.total('Requests')).toBe(2);
  });
});

describe('the JSON line', () => {
  it('is one JSON object a line on standard output, its time first', () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    let written: unknown[][];
    try {
      jsonLines({ level: 'warn', msg: 'retry', call: 'POST /channels/{id}/messages', status: 503 });
    } finally {
      written = [...write.mock.calls];
      write.mockRestore();
    }
    expect(written).toHaveLength(1);
    const text = String(written[0]![0]);
    expect(text.endsWith('\n')).toBe(true);
    expect(text.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(text)).toEqual({ time: expect.any(String), level: 'warn', msg: 'retry', call: 'POST /channels/{id}/messages', status: 503 });
  });

  it('LOG_LEVEL=warn drops info and keeps warn', () => {
    process.env.LOG_LEVEL = 'warn';
    const seen = observe();
    log('info', 'quiet');
    log('warn', 'loud');
    seen.stop();
    expect(seen.logs.map((e) => e.msg)).toEqual(['loud']);
  });
});
