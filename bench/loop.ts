/**
 * The whole loop's latency (`npx tsx bench/loop.ts` alone, or in
 * `npm run bench`): from a member's click on a poll's answer button on the
 * sandbox (its click control route, what the sandbox page calls) to the
 * poll message showing the new count, through the sandbox's gateway, the
 * reference bot and the service, over 100 clicks by 100 members, one after
 * another. The message follows the votes through the poll's coalesced
 * refresh, so the figure is mostly that refresh's wait; the time to the
 * member's own answer (the follow-up) is the bot's and the service's part.
 * Figures, not tests.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type LocalService, startLocal } from '#infra/local/start.js';
import { ofGuild, snowflakes, succeed } from './requests.js';
import { median, printRows, type Row } from './table.js';

const SECTION = 'whole loop';
const CLICKS = Number(process.env.BENCH_LOOP_CLICKS || 100);
/** A click whose effect has not shown by then is counted as lost. */
const LIMIT_MS = 30_000;

const snowflake = snowflakes(7234567890000000000n);

async function sandbox(service: LocalService, method: string, path: string, body?: unknown): Promise<any> {
  const origin = service.sandboxUrl!.replace(/\/api\/v10$/, '');
  const res = await fetch(`${origin}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bot ${service.platformBotToken}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** The total the poll message shows in its footer ("12 votes · ..."). */
async function shownTotal(service: LocalService, channel: string, message: string): Promise<number> {
  const m = await sandbox(service, 'GET', `/api/v10/channels/${channel}/messages/${message}`);
  return Number(/^(\d+) votes?/.exec(m?.embeds?.[0]?.footer?.text ?? '')?.[1] ?? -1);
}

export async function runLoopBench(): Promise<Row[]> {
  const service = await startLocal({ port: 0, dataDir: null, bot: true, botLog: () => undefined });
  try {
    const guild = snowflake();
    const channel = snowflake();
    await ofGuild(service, guild, { channels: [channel] });
    await succeed(service, 'POST', '/modules/polls/enable', { guild_id: guild });
    const { poll } = await succeed(service, 'POST', '/modules/polls/entries', {
      guild_id: guild,
      channel_id: channel,
      poll_type: 2,
      message_id: null,
      poll_duration: '1d',
      poll_answer_type: 2,
      question: 'Which one?',
      description: null,
      answers: ['A', 'B'].map((answer_text) => ({ answer_text, label: null, description: null, emoji_name: null, emoji_id: null })),
      is_multi_select: false,
      is_anonymous: false,
      max_votes_per_answer: 1,
      poll_owner_id: snowflake(),
      application_id: null,
      token: null,
    });
    const message = await sandbox(service, 'GET', `/api/v10/channels/${channel}/messages/${poll.message_id}`);
    const customId = message.components[0].components[0].custom_id as string;

    const times: number[] = [];
    const answered: number[] = [];
    let lost = 0;
    for (let i = 1; i <= CLICKS; i++) {
      const started = performance.now();
      const click = await sandbox(service, 'POST', `/_sandbox/channels/${channel}/messages/${poll.message_id}/click`, {
        user_id: snowflake(),
        custom_id: customId,
      });
      let told = false;
      for (;;) {
        if (!told) {
          const { answers } = await sandbox(service, 'GET', `/_sandbox/interactions/${click.interaction_id}`);
          if ((answers as { kind: string }[]).some((a) => a.kind === 'follow-up')) {
            told = true;
            answered.push(performance.now() - started);
          }
        }
        if ((await shownTotal(service, channel, poll.message_id)) >= i) {
          times.push(performance.now() - started);
          break;
        }
        if (performance.now() - started > LIMIT_MS) {
          lost++;
          break;
        }
        await new Promise((r) => setTimeout(r, 5));
      }
    }
    const worst = Math.max(...times);
    return [
      {
        section: SECTION,
        measure: `click on a poll button (sandbox) to the new count on its message, median over ${CLICKS} clicks (ms)`,
        value: median(times).toFixed(0),
        note: 'sandbox click route -> gateway INTERACTION_CREATE -> reference bot (ack, POST /modules/polls/entry/vote) -> coalesced poll refresh -> message edit',
      },
      {
        section: SECTION,
        measure: `same, worst of ${CLICKS} clicks (ms)`,
        value: worst.toFixed(0),
        note: lost > 0 ? `${lost} clicks showed no effect within ${LIMIT_MS / 1000} s` : 'every click showed on the message',
      },
      {
        section: SECTION,
        measure: `click to the member's ephemeral answer, median / worst over ${CLICKS} clicks (ms)`,
        value: `${median(answered).toFixed(0)} / ${Math.max(...answered).toFixed(0)}`,
        note: "the bot and the service without the message's refresh wait: the vote counted and the member told through the interaction webhook",
      },
    ];
  } finally {
    await service.stop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  printRows(await runLoopBench());
}
