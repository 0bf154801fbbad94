/**
 * A member's permissions as the platform computes them (Discord's documented
 * order): the `@everyone` role's bits, OR each role the member holds;
 * Administrator then grants every bit. In a channel, the overwrites apply on
 * top: `@everyone`'s (deny, then allow), the member's roles' (all denies,
 * then all allows), then the member's own.
 */

/** The permission bits diagnostics and the dashboard's access reason about (Discord's values). */
export const Permission = {
  ManageChannels: 1n << 4n,
  ManageGuild: 1n << 5n,
  Administrator: 1n << 3n,
  AddReactions: 1n << 6n,
  ViewChannel: 1n << 10n,
  SendMessages: 1n << 11n,
  ManageMessages: 1n << 13n,
  EmbedLinks: 1n << 14n,
  ReadMessageHistory: 1n << 16n,
  ManageRoles: 1n << 28n,
  SendPolls: 1n << 49n,
} as const;

export type PermissionName = keyof typeof Permission;

/** Every permission bit: what Administrator (and a guild's ownership) grants. */
export const ALL_PERMISSIONS = (1n << 64n) - 1n;
const ALL = ALL_PERMISSIONS;

/** A role as the computation needs it: its ID and bits (a decimal string, as the platform writes them). */
export interface RoleBits {
  id: string;
  permissions: string;
}

/** A channel's permission overwrite: type 0 a role, 1 a member. */
export interface Overwrite {
  id: string;
  type: number;
  allow: string;
  deny: string;
}

/** The member's guild-wide permissions: `@everyone` (the guild's ID) and the roles held. */
export function basePermissions(guildId: string, roles: readonly RoleBits[], memberRoles: readonly string[]): bigint {
  const held = new Set([guildId, ...memberRoles]);
  let bits = 0n;
  for (const role of roles) if (held.has(role.id)) bits |= BigInt(role.permissions);
  return bits & Permission.Administrator ? ALL : bits;
}

/** The member's permissions in a channel with these overwrites, starting from {@link basePermissions}. */
export function channelPermissions(
  base: bigint,
  member: { guildId: string; userId: string; roles: readonly string[] },
  overwrites: readonly Overwrite[],
): bigint {
  if (base & Permission.Administrator) return ALL;
  let bits = base;
  const everyone = overwrites.find((o) => o.type === 0 && o.id === member.guildId);
  if (everyone) bits = (bits & ~BigInt(everyone.deny)) | BigInt(everyone.allow);
  const held = new Set(member.roles);
  let allow = 0n;
  let deny = 0n;
  for (const o of overwrites) {
    if (o.type !== 0 || o.id === member.guildId || !held.has(o.id)) continue;
    allow |= BigInt(o.allow);
    deny |= BigInt(o.deny);
  }
  bits = (bits & ~deny) | allow;
  const own = overwrites.find((o) => o.type === 1 && o.id === member.userId);
  if (own) bits = (bits & ~BigInt(own.deny)) | BigInt(own.allow);
  return bits;
}

/** The names of the permissions in `needed` that `held` lacks, in the order given. */
export function missingPermissions(held: bigint, needed: readonly PermissionName[]): PermissionName[] {
  return needed.filter((name) => (held & Permission[name]) === 0n);
}
