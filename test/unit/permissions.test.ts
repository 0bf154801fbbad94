import { describe, expect, it } from 'vitest';
import { Permission, basePermissions, channelPermissions, missingPermissions } from '#shared/platform/permissions.js';

const G = '100';
const VIEW = Permission.ViewChannel;
const SEND = Permission.SendMessages;
const bits = (n: bigint) => String(n);

describe('platform permission computation', () => {
  const roles = [
    { id: G, permissions: bits(VIEW) },
    { id: '7', permissions: bits(SEND) },
    { id: '8', permissions: bits(Permission.ManageRoles) },
  ];

  it('ORs @everyone with the roles the member holds, and no others', () => {
    expect(basePermissions(G, roles, ['7'])).toBe(VIEW | SEND);
    expect(basePermissions(G, roles, [])).toBe(VIEW);
  });

  it('Administrator grants every bit, whatever the overwrites deny', () => {
    const base = basePermissions(G, [...roles, { id: '9', permissions: bits(Permission.Administrator) }], ['9']);
    expect(missingPermissions(base, ['ManageRoles', 'SendPolls'])).toEqual([]);
    const ch = channelPermissions(base, { guildId: G, userId: '5', roles: ['9'] }, [{ id: G, type: 0, allow: '0', deny: bits(VIEW) }]);
    expect(ch & VIEW).toBe(VIEW);
  });

  it('applies @everyone, then roles (denies before allows), then the member', () => {
    const member = { guildId: G, userId: '5', roles: ['7', '8'] };
    const base = VIEW | SEND;
    // @everyone denied view; a held role allows it back.
    expect(channelPermissions(base, member, [{ id: G, type: 0, allow: '0', deny: bits(VIEW) }]) & VIEW).toBe(0n);
    const back = channelPermissions(base, member, [
      { id: G, type: 0, allow: '0', deny: bits(VIEW) },
      { id: '7', type: 0, allow: bits(VIEW), deny: '0' },
    ]);
    expect(back & VIEW).toBe(VIEW);
    // One role denies send, another allows it: the allow wins.
    const roleAllowWins = channelPermissions(base, member, [
      { id: '7', type: 0, allow: '0', deny: bits(SEND) },
      { id: '8', type: 0, allow: bits(SEND), deny: '0' },
    ]);
    expect(roleAllowWins & SEND).toBe(SEND);
    // The member's own overwrite comes last.
    const own = channelPermissions(base, member, [
      { id: '8', type: 0, allow: bits(SEND), deny: '0' },
      { id: '5', type: 1, allow: '0', deny: bits(SEND) },
    ]);
    expect(own & SEND).toBe(0n);
    // A role the member does not hold changes nothing.
    expect(channelPermissions(base, member, [{ id: '99', type: 0, allow: '0', deny: bits(VIEW) }])).toBe(base);
  });

  it('names what is missing in the order asked', () => {
    expect(missingPermissions(VIEW, ['SendMessages', 'ViewChannel', 'EmbedLinks'])).toEqual(['SendMessages', 'EmbedLinks']);
  });
});
