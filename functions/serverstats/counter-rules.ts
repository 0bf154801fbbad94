/**
 * The rules of a counter that need no stored state (behaviour §12): its type,
 * its role, its goal and format. Pure, so request schemas can use them.
 */

export const CounterType = {
  Statuses: 1,
  Online: 2,
  OnlineWithRole: 3,
  Offline: 4,
  DoNotDisturb: 5,
  Members: 6,
  MembersWithRole: 7,
  Boosts: 8,
  Channels: 9,
  Roles: 10,
} as const;

/** What each offered `counter_type` shows, as the document says it. */
export const COUNTER_TYPE_MEANINGS: Record<number, string> = {
  [CounterType.Statuses]: 'statuses: online, offline and do-not-disturb members in one name (<online>, <offline>, <dnd>)',
  [CounterType.Online]: 'online members',
  [CounterType.Offline]: 'offline members',
  [CounterType.DoNotDisturb]: 'do-not-disturb members',
  [CounterType.Members]: 'members',
  [CounterType.MembersWithRole]: 'members with the role new_role_id (<role_name>)',
  [CounterType.Boosts]: 'server boosts',
  [CounterType.Channels]: 'channels',
  [CounterType.Roles]: 'roles',
};

/** The default format of each type (an empty or null format uses it). */
export const DEFAULT_FORMATS: Record<number, string> = {
  [CounterType.Statuses]: 'Online: <online> | Offline: <offline> | DND: <dnd>',
  [CounterType.Online]: 'Online: <value>',
  [CounterType.Offline]: 'Offline: <value>',
  [CounterType.DoNotDisturb]: 'Do Not Disturb: <value>',
  [CounterType.Members]: 'Members: <value>',
  [CounterType.MembersWithRole]: '<role_name>: <value>',
  [CounterType.Boosts]: 'Boosts: <value>',
  [CounterType.Channels]: 'Channels: <value>',
  [CounterType.Roles]: 'Roles: <value>',
};

export interface CreateCounterInput {
  counter_type: number;
  new_format: string | null;
  new_role_id: string | null;
  new_goal: number | null;
}

/** The rules a new counter must keep that need no stored state (422 sentences). */
export function counterProblem(input: CreateCounterInput): string | null {
  const type = input.counter_type;
  if (type === CounterType.OnlineWithRole) {
    return "Field 'counter_type' 3 (online members with a role) is not offered: no platform REST call gives presence by role. Use 2 (online) or 7 (members with a role).";
  }
  if (!DEFAULT_FORMATS[type])
    return "Field 'counter_type' must be one of 1 (statuses), 2 (online), 4 (offline), 5 (do not disturb), 6 (members), 7 (members with a role), 8 (boosts), 9 (channels), 10 (roles).";
  if (type === CounterType.MembersWithRole && input.new_role_id === null) return "Field 'new_role_id' is required for counter_type 7 (members with a role).";
  if (type !== CounterType.MembersWithRole && input.new_role_id !== null)
    return `Field 'new_role_id' is only for counter_type 7; leave it out for counter_type ${type}.`;
  if (type === CounterType.Statuses && input.new_goal !== null) return "Field 'new_goal' is not for counter_type 1 (statuses), which shows three figures.";
  if (input.new_format && type === CounterType.Statuses && /<value>/.test(input.new_format))
    return "Field 'new_format' of a statuses counter takes <online>, <offline> and <dnd>, not <value>.";
  return null;
}
