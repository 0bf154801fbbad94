/** The invite URL `npm run bot:invite-url` prints: its scopes and the permissions integer the modules need, bit by bit. */
import { PermissionFlagsBits } from 'discord-api-types/v10';
import { expect, it } from 'vitest';
import { applicationIdOfToken, inviteUrl, PERMISSIONS, permissionsInteger } from '../../../clients/bot/invite.js';

it('the permissions integer is the bits the modules need, and nothing more', () => {
  expect(permissionsInteger()).toBe(562950221950065n);
  const bits = PermissionFlagsBits;
  expect(permissionsInteger()).toBe(
    bits.CreateInstantInvite |
      bits.ManageChannels |
      bits.ManageGuild |
      bits.AddReactions |
      bits.ViewChannel |
      bits.SendMessages |
      bits.ManageMessages |
      bits.EmbedLinks |
      bits.ReadMessageHistory |
      bits.ManageRoles |
      bits.SendPolls,
  );
  expect(permissionsInteger() & bits.Administrator).toBe(0n);
  expect(new Set(PERMISSIONS.map((p) => p.name)).size).toBe(PERMISSIONS.length);
  for (const p of PERMISSIONS) expect(p.why.length).toBeGreaterThan(10);
});

it('the URL adds the bot with its commands and those permissions', () => {
  const url = new URL(inviteUrl('123456789012345678'));
  expect(url.origin + url.pathname).toBe('https://discord.com/oauth2/authorize');
  expect(Object.fromEntries(url.searchParams)).toEqual({
    client_id: '123456789012345678',
    scope: 'bot applications.commands',
    permissions: '562950221950065',
    integration_type: '0',
  });
});

it("reads the application ID from a bot token's first part", () => {
  const token = `${Buffer.from('123456789012345678').toString('base64')}.GaBcDe.secret`;
  expect(applicationIdOfToken(token)).toBe('123456789012345678');
  expect(applicationIdOfToken('not-a-token')).toBeNull();
});
