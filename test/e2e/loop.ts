/**
 * The whole loop for end-to-end tests: local mode with the sandbox and the
 * reference bot connected to both. Tests act only as members on the
 * sandbox (its control routes) and read what a member would see there;
 * the service is called only to set a module up, as an admin would.
 */
import { startTestService, type TestService } from '#test/helpers/local.js';
import { type SandboxControl, sandboxOf } from '#test/helpers/sandbox.js';

export { eventually } from '#test/integration/polls/helpers.js';

/** An answer to an interaction as the sandbox keeps it. */
type Shown = { content?: string; embeds?: { description?: string }[] };
type Answer = { kind: 'callback'; type: number; data?: Shown } | { kind: 'follow-up'; message: Shown };

export interface Loop {
  service: TestService;
  sandbox: SandboxControl;
  /** The bot's lines so far (one per event), to show when a test fails. */
  botLines: string[];
  /** What the member of an interaction was shown, in order: callback messages (type 4) and follow-ups, their text. */
  toldMember(interactionId: string): Promise<string[]>;
  /** Sends a control request to the sandbox as a member would act; answers the parsed body (throws on a status >= 400). */
  act(method: string, path: string, body?: unknown): Promise<any>;
  stop(): Promise<void>;
}

/**
 * `botAttemptTimeoutMs`: the bot gives up on an attempt at a service call after this long, as when its connection drops.
 * `botModuleStateTtlMs`: how long the bot believes a module state (default 0: asked at each event, since tests enable
 * a module and act at once, faster than the bot's 60 s; a test of the bot's quiet sets the real one).
 * `botStatsFlushMs`: how long the bot holds statistics recordings before a batch (default 200 ms, not the bot's 10 s, so
 * a test sees a recording soon; tests still wait for it with `eventually`).
 */
export async function startLoop(options: { botAttemptTimeoutMs?: number; botModuleStateTtlMs?: number; botStatsFlushMs?: number } = {}): Promise<Loop> {
  const botLines: string[] = [];
  const service = await startTestService({
    bot: true,
    botLog: (line) => botLines.push(line),
    botAttemptTimeoutMs: options.botAttemptTimeoutMs,
    botModuleStateTtlMs: options.botModuleStateTtlMs ?? 0,
    botStatsFlushMs: options.botStatsFlushMs ?? 200,
  });
  const sandbox = sandboxOf(service);
  const act = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sandbox.origin}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}\nbot lines:\n${botLines.join('\n')}`);
    return text ? JSON.parse(text) : null;
  };
  const toldMember = async (interactionId: string) => {
    const { answers } = (await act('GET', `/_sandbox/interactions/${interactionId}`)) as { answers: Answer[] };
    return answers.flatMap((a) => {
      const shown = a.kind === 'follow-up' ? a.message : a.type === 4 || (a.type === 5 && a.data?.content) ? a.data : null;
      return shown ? [[shown.content, ...(shown.embeds ?? []).map((e) => e.description)].filter(Boolean).join('\n')] : [];
    });
  };
  return { service, sandbox, botLines, act, toldMember, stop: () => service.stop() };
}
