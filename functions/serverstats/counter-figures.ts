/**
 * What counters show (behaviour §12): the figures of a guild, read from the
 * platform with as few calls as the counters need, and the channel name a
 * counter's format makes of them.
 */
import { platform } from '#shared/platform/client.js';
import { CounterType, DEFAULT_FORMATS } from './counter-rules.js';
import { latestRecord } from './packs.js';

export { CounterType, DEFAULT_FORMATS };

export const MAX_NAME_LENGTH = 100;
/** A statuses recording older than this is not used; the guild's presence count is. */
const STATUSES_FRESH_MS = 15 * 60 * 1000;
const MEMBERS_PAGE = 1000;

export interface CounterSpec {
  counter_type: number;
  role_id: string | null;
  goal_count: number | null;
  format: string;
}

/** The figures a set of counters needs, each read once per refresh. */
export class GuildFigures {
  private guild?: Promise<{ members: number; presence: number; boosts: number }>;
  private statuses?: Promise<{ online: number; offline: number; dnd: number }>;
  private channels?: Promise<number>;
  private roles?: Promise<Map<string, string>>;
  private roleMembers = new Map<string, Promise<number>>();

  constructor(readonly guildId: string) {}

  /** Platform calls made so far (for the benchmark). */
  calls = 0;

  private counts() {
    this.guild ??= (this.calls++, platform.getGuild(this.guildId)).then((g) => ({
      members: g.approximate_member_count ?? 0,
      presence: g.approximate_presence_count ?? 0,
      boosts: g.premium_subscription_count ?? 0,
    }));
    return this.guild;
  }

  /** Online, offline and do-not-disturb: the latest statuses recording of the last 15 minutes, else the presence count. */
  presence() {
    this.statuses ??= (async () => {
      const since = new Date(Date.now() - STATUSES_FRESH_MS).toISOString();
      const latest = await latestRecord(this.guildId, 'activities/statuses', since);
      if (latest) return { online: Number(latest.online_count), offline: Number(latest.offline_count), dnd: Number(latest.dnd_count) };
      const { members, presence } = await this.counts();
      return { online: presence, offline: Math.max(0, members - presence), dnd: 0 };
    })();
    return this.statuses;
  }

  roleNames() {
    this.roles ??= (this.calls++, platform.getGuildRoles(this.guildId)).then((roles) => new Map(roles.map((r) => [r.id, r.name])));
    return this.roles;
  }

  private channelCount() {
    this.channels ??= (this.calls++, platform.getGuildChannels(this.guildId)).then((channels) => channels.length);
    return this.channels;
  }

  /** Members holding a role, by paging the member list. */
  private withRole(roleId: string) {
    let count = this.roleMembers.get(roleId);
    if (!count) {
      count = (async () => {
        let n = 0;
        let after: string | undefined;
        for (;;) {
          this.calls++;
          const page = await platform.listMembers(this.guildId, { limit: MEMBERS_PAGE, ...(after ? { after } : {}) });
          n += page.filter((m) => m.roles.includes(roleId)).length;
          if (page.length < MEMBERS_PAGE) return n;
          after = page[page.length - 1]!.user.id;
        }
      })();
      this.roleMembers.set(roleId, count);
    }
    return count;
  }

  /** The placeholders of a counter's format and their values. */
  async variables(counter: CounterSpec): Promise<Record<string, string>> {
    const goal = (figure: number) => String(counter.goal_count === null ? figure : Math.max(0, counter.goal_count - figure));
    switch (counter.counter_type) {
      case CounterType.Statuses: {
        const s = await this.presence();
        return { online: String(s.online), offline: String(s.offline), dnd: String(s.dnd) };
      }
      case CounterType.Online:
        return { value: goal((await this.presence()).online) };
      case CounterType.Offline:
        return { value: goal((await this.presence()).offline) };
      case CounterType.DoNotDisturb:
        return { value: goal((await this.presence()).dnd) };
      case CounterType.Members:
        return { value: goal((await this.counts()).members) };
      case CounterType.Boosts:
        return { value: goal((await this.counts()).boosts) };
      case CounterType.Channels:
        return { value: goal(await this.channelCount()) };
      case CounterType.Roles:
        return { value: goal((await this.roleNames()).size) };
      case CounterType.MembersWithRole: {
        const [names, count] = await Promise.all([this.roleNames(), this.withRole(counter.role_id!)]);
        return { value: goal(count), role_name: names.get(counter.role_id!) ?? 'Role' };
      }
      default:
        throw new Error(`counter type ${counter.counter_type} has no figures`);
    }
  }
}

/** The channel name of a counter and the figure it shows (`value`, or `online/offline/dnd` for statuses). */
export async function counterDisplay(counter: CounterSpec, figures: GuildFigures): Promise<{ name: string; value: string }> {
  const vars = await figures.variables(counter);
  const format = counter.format || DEFAULT_FORMATS[counter.counter_type]!;
  const name = format.replace(/<(value|online|offline|dnd|role_name)>/g, (whole, key: string) => vars[key] ?? whole);
  const value = vars.value ?? `${vars.online}/${vars.offline}/${vars.dnd}`;
  return { name, value };
}
