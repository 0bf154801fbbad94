/**
 * Which modules each guild enabled, as the service says (`GET
 * /modules/{module}/status?guild_id=`, asked for a module when an event
 * first needs it), so the bot calls only those: an
 * event in a guild that enabled neither polls nor the statistics makes no
 * call to them, and their refusals no longer fill the service's log and the
 * bot's. Kept fresh: an "enabled" answer is asked again once older than
 * the time to live (60 s by default), an "off" one after 15 s, and a module
 * the service answers "disabled" (409 ModuleDisabledError, or 404
 * SettingsError: never set up) is marked so at once. The bot's own message in a guild (the service
 * posted a panel, a poll, a giveaway: a module was just set up there) makes
 * the next event ask again, so a module set up a moment ago is not missed.
 *
 * A state the service could not tell (unreachable, an error) counts as
 * enabled: the bot then calls, and a real failure shows in its log as one.
 */

/** The modules the service has (behaviour §5). */
export const MODULES = ['reactionroles', 'polls', 'socials', 'serverstats', 'welcoming', 'invite-tracker', 'giveaways', 'verifier', 'tags'] as const;

/** The service's answer for one module: enabled, disabled, or null when it could not say. */
export type AskStatus = (guildId: string, module: string) => Promise<boolean | null>;

/** The module a service path belongs to: `/modules/<module>/...`. */
export const moduleOfPath = (path: string): string | null => /^\/modules\/([^/]+)\//.exec(path)?.[1] ?? null;

/** The error names that mean the module is off in the guild. */
const DISABLED_ERRORS = new Set(['ModuleDisabledError', 'SettingsError']);

/** True when a call's refusal says its module is off (the name the service's envelope gives). */
export const saysDisabled = (status: number | null, errorName: string | null) =>
  (status === 409 || status === 404) && errorName !== null && DISABLED_ERRORS.has(errorName);

interface Known {
  at: number;
  enabled: boolean | null;
}

export class ModuleStates {
  /** `<guild>/<module>` -> what the service said, and when. */
  private readonly known = new Map<string, Known>();
  private readonly asking = new Map<string, Promise<Known>>();

  /**
   * `ttlMs`: how long an "enabled" answer is believed (a disable shows at the
   * first call anyway, as a 409). An "off" answer is believed for at most
   * 15 s: a module enabled after the guild's last event is otherwise missed
   * until the next ask, and its events lost meanwhile.
   */
  constructor(
    private readonly ask: AskStatus,
    private readonly ttlMs = 60_000,
    private readonly now: () => number = Date.now,
    private readonly offTtlMs = Math.min(ttlMs, 15_000),
  ) {}

  /** Whether `module` is on in the guild: false only when the service said it is off. */
  async enabled(guildId: string, module: string): Promise<boolean> {
    if (!(MODULES as readonly string[]).includes(module)) return true;
    return (await this.of(guildId, module)).enabled !== false;
  }

  /** The service answered a call of `module` with "disabled": believe it until the next ask. */
  markDisabled(guildId: string, module: string): void {
    this.known.set(`${guildId}/${module}`, { at: this.now(), enabled: false });
  }

  /** Something says the guild's modules may have changed (the service just posted there): ask again at the next event. */
  forget(guildId: string): void {
    for (const key of this.known.keys()) if (key.startsWith(`${guildId}/`)) this.known.delete(key);
  }

  private of(guildId: string, module: string): Promise<Known> {
    const key = `${guildId}/${module}`;
    const known = this.known.get(key);
    if (known && this.now() - known.at < (known.enabled === false ? this.offTtlMs : this.ttlMs)) return Promise.resolve(known);
    let asking = this.asking.get(key);
    if (!asking) {
      asking = this.ask(guildId, module)
        .catch(() => null)
        .then((enabled) => {
          // A state the service could not tell is asked again at the next event.
          const fresh = { at: enabled === null ? Number.NEGATIVE_INFINITY : this.now(), enabled };
          this.known.set(key, fresh);
          this.asking.delete(key);
          return fresh;
        });
      this.asking.set(key, asking);
    }
    return asking;
  }
}
