import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setMetricOutput, stdoutLine } from '#shared/observe/emit.js';
import { type LogEvent, jsonLines, jsonLinesTo, log, setLogOutput } from '#shared/observe/log.js';
import { METRIC_NAMESPACE } from '#shared/observe/metrics.js';
import { lambdaContext } from '#infra/local/lambda-context.js';
import { observe } from '#test/helpers/observe.js';
import { startTable, testScheduler } from '../scheduler/harness.js';
import { GUILD, MEMBER, broken, event as request, ok } from './vote-request.js';

const event = (body: unknown) => request(body, { 'X-Acting-User-Id': MEMBER });

/** What `work` writes to standard output with Lambda's outputs (the defaults), one entry a write. */
async function lambdaStdout(work: () => Promise<unknown> | void): Promise<string[]> {
  const logOutput = setLogOutput(jsonLines);
  const metricOutput = setMetricOutput(stdoutLine);
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    await work();
    return write.mock.calls.map((call) => String(call[0]));
  } finally {
    write.mockRestore();
    setLogOutput(logOutput);
    setMetricOutput(metricOutput);
  }
}

/** The one JSON document a write holds: it ends the line and has no other line in it. */
function document(written: string): Record<string, unknown> & { _aws: { Timestamp: number; CloudWatchMetrics: unknown[] } } {
  expect(written.endsWith('\n')).toBe(true);
  expect(written.slice(0, -1)).not.toContain('\n');
  return JSON.parse(written);
}

const byStatus = [['Module', 'StatusClass'], ['StatusClass']];
const directive = (name: string, unit: string, dimensions: string[][]) => ({
  Namespace: METRIC_NAMESPACE,
  Dimensions: dimensions,
  Metrics: [{ Name: name, Unit: unit }],
});

/** The directives of a request answered 2xx: the count by module and status class, the duration by module. */
const answered = [directive('Requests', 'Count', byStatus), directive('RequestDuration', 'Milliseconds', [['Module']])];

afterEach(() => {
  delete process.env.LOG_LEVEL;
});

describe('a request in Lambda', () => {
  it('writes one line: the request fields and its metrics in one embedded-metric-format document, timed by _aws.Timestamp', async () => {
    const context = lambdaContext('polls.vote');
    const before = Date.now();
    const written = await lambdaStdout(() => ok(event({ guild_id: GUILD }), context));
    expect(written).toHaveLength(1);
    const line = document(written[0]!);
    expect(line).toEqual({
      level: 'info',
      msg: 'request',
      route: 'polls.vote',
      guild_id: GUILD,
      actor_id: MEMBER,
      status: 200,
      duration_ms: expect.any(Number),
      request_id: context.awsRequestId,
      cold_start: expect.any(Boolean),
      _aws: {
        Timestamp: expect.any(Number),
        CloudWatchMetrics: answered,
      },
      Module: 'polls',
      StatusClass: '2xx',
      Requests: 1,
      RequestDuration: line.duration_ms,
    });
    expect(line._aws.Timestamp).toBeGreaterThanOrEqual(before);
  });

  it('writes a failure as one line at error, counting it as a request and an error of its module and status class', async () => {
    const written = await lambdaStdout(() => broken(event({ guild_id: GUILD }), lambdaContext('polls.vote')));
    // The handler's own `unexpected error` line, then the request's one line.
    const lines = written.map(document);
    const requests = lines.filter((line) => line.msg === 'request');
    expect(requests).toHaveLength(1);
    expect(lines.filter((line) => '_aws' in line)).toEqual(requests);
    expect(requests[0]).toMatchObject({ level: 'error', status: 500, Module: 'polls', StatusClass: '5xx', Requests: 1, Errors: 1 });
    expect(requests[0]!._aws.CloudWatchMetrics).toEqual([
      directive('Requests', 'Count', byStatus),
      directive('Errors', 'Count', byStatus),
      directive('RequestDuration', 'Milliseconds', [['Module']]),
    ]);
  });

  it('still writes the metrics when LOG_LEVEL leaves the request out (the metrics alone), and a failure it keeps as one line', async () => {
    process.env.LOG_LEVEL = 'error';
    const quiet = await lambdaStdout(() => ok(event({ guild_id: GUILD }), lambdaContext('polls.vote')));
    expect(quiet).toHaveLength(1);
    expect(document(quiet[0]!)).toEqual({
      _aws: {
        Timestamp: expect.any(Number),
        CloudWatchMetrics: answered,
      },
      Module: 'polls',
      StatusClass: '2xx',
      Requests: 1,
      RequestDuration: expect.any(Number),
    });
    const loud = (await lambdaStdout(() => broken(event({ guild_id: GUILD }), lambdaContext('polls.vote')))).map(document);
    expect(loud.map((line) => [line.msg, '_aws' in line])).toEqual([
      ['unexpected error', false],
      ['request', true],
    ]);
  });
});

describe('a job run in Lambda', () => {
  let table: { stop(): Promise<void> };
  beforeAll(async () => {
    table = await startTable();
  });
  afterAll(() => table.stop());

  it('writes one line: the run and its JobsRun in one embedded-metric-format document', async () => {
    const t = testScheduler();
    const consume = t.scheduler.consumer('job.one-line', async () => undefined);
    await t.scheduler.scheduleAt('job.one-line', `${GUILD}#k1`, t.clock.now);
    const written = await lambdaStdout(() => consume(t.eventOf([t.sent[0]!])));
    expect(written).toHaveLength(1);
    expect(document(written[0]!)).toEqual({
      level: 'info',
      msg: 'job',
      job: 'job.one-line',
      key: `${GUILD}#k1`,
      guild_id: GUILD,
      outcome: 'done',
      attempt: 1,
      duration_ms: expect.any(Number),
      _aws: { Timestamp: expect.any(Number), CloudWatchMetrics: [directive('JobsRun', 'Count', [['Job'], []])] },
      Job: 'job.one-line',
      JobsRun: 1,
    });
  });
});

describe('an event carrying metrics, by output', () => {
  it('is one line through a JSON-lines output whose writer is the metric output too', () => {
    const lines: string[] = [];
    const write = (line: string) => void lines.push(line);
    const logOutput = setLogOutput(jsonLinesTo(write));
    const metricOutput = setMetricOutput(write);
    try {
      log('info', 'counted', { poll: 'p1' }, { votes: 1 });
      log('info', 'plain', { poll: 'p2' });
    } finally {
      setLogOutput(logOutput);
      setMetricOutput(metricOutput);
    }
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { level: 'info', msg: 'counted', poll: 'p1', _aws: { Timestamp: expect.any(Number), CloudWatchMetrics: [directive('Votes', 'Count', [[]])] }, Votes: 1 },
      { time: expect.any(String), level: 'info', msg: 'plain', poll: 'p2' },
    ]);
  });

  it("in local mode's shape (a readable log output, no metric output) gives the log output the event alone", () => {
    const events: LogEvent[] = [];
    const logOutput = setLogOutput((e) => void events.push(e));
    const metricOutput = setMetricOutput(null);
    const seen = observe();
    try {
      log('info', 'counted', { poll: 'p1' }, { votes: 1 });
    } finally {
      seen.stop();
      setLogOutput(logOutput);
      setMetricOutput(metricOutput);
    }
    expect(events).toEqual([{ level: 'info', msg: 'counted', poll: 'p1' }]);
    expect(seen.logs).toEqual(events);
    expect(seen.metrics).toEqual([{ name: 'Votes', value: 1, dimensions: {} }]);
  });

  it('is two lines, as before, when only the metric output is replaced: the JSON line on standard output, the plain EMF line to the metric output', async () => {
    const emf: string[] = [];
    let written: string[] = [];
    written = await lambdaStdout(() => {
      setMetricOutput((line) => void emf.push(line));
      log('info', 'counted', { poll: 'p1' }, { votes: 1 });
    });
    expect(written.map((line) => JSON.parse(line))).toEqual([{ time: expect.any(String), level: 'info', msg: 'counted', poll: 'p1' }]);
    expect(emf.map((line) => JSON.parse(line))).toEqual([
      { _aws: { Timestamp: expect.any(Number), CloudWatchMetrics: [directive('Votes', 'Count', [[]])] }, Votes: 1 },
    ]);
  });
});
