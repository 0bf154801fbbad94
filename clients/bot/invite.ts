/**
 * `npm run bot:invite-url`: the URL that adds the bot to a community on the
 * real platform, with the scopes `bot` and `applications.commands` and the
 * permissions the modules need, each bit with its reason. The application
 * ID is `--application-id=<id>`, else `PLATFORM_APPLICATION_ID`, else read
 * from `PLATFORM_BOT_TOKEN` (a bot token's first part is its user ID, which
 * is the application's ID).
 */
import { pathToFileURL } from 'node:url';
import { PermissionFlagsBits } from 'discord-api-types/v10';

/** Each permission the service's calls need in a community, and why. */
export const PERMISSIONS: { name: keyof typeof PermissionFlagsBits; why: string }[] = [
  { name: 'ViewChannel', why: 'every module: see the channels it posts in and whose messages it reads' },
  { name: 'SendMessages', why: 'polls, giveaways, tags, welcome and leave messages, starboard, socials posts, verification prompts' },
  { name: 'EmbedLinks', why: 'polls, giveaways and starboard posts are embeds' },
  { name: 'AddReactions', why: 'emoji polls and reaction-role panels put their emojis on the message' },
  { name: 'ReadMessageHistory', why: 'react to, read and count reactions on messages already posted (panels, polls, starboard)' },
  { name: 'ManageMessages', why: "take back a member's reaction (single-answer emoji polls, reaction-role panels) and clear reactions" },
  { name: 'SendPolls', why: 'platform-native polls (polls with poll_type 1)' },
  { name: 'ManageRoles', why: 'reaction roles, join roles and the verifier grant and remove roles (each below the bot’s highest role)' },
  { name: 'ManageChannels', why: 'statistics counters create, rename and delete their channels; invite tracking deletes invites' },
  { name: 'CreateInstantInvite', why: 'invite tracking creates invites' },
  { name: 'ManageGuild', why: "invite tracking lists the community's invites and reads its vanity URL" },
];

/** The permissions integer: every bit of {@link PERMISSIONS}. */
export function permissionsInteger(): bigint {
  return PERMISSIONS.reduce((all, p) => all | PermissionFlagsBits[p.name], 0n);
}

/** The scopes the bot is added with: the bot user, and its commands. */
export const SCOPES = ['bot', 'applications.commands'] as const;

export function inviteUrl(applicationId: string): string {
  const query = new URLSearchParams({ client_id: applicationId, scope: SCOPES.join(' '), permissions: String(permissionsInteger()), integration_type: '0' });
  return `https://discord.com/oauth2/authorize?${query}`;
}

/** The application ID the token belongs to, or null when the token is not a bot token's shape. */
export function applicationIdOfToken(token: string): string | null {
  const first = token.split('.')[0] ?? '';
  const id = Buffer.from(first, 'base64').toString('utf8');
  return /^[0-9]{17,20}$/.test(id) ? id : null;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = process.argv.find((a) => a.startsWith('--application-id='))?.split('=')[1];
  const id = arg || process.env.PLATFORM_APPLICATION_ID || applicationIdOfToken(process.env.PLATFORM_BOT_TOKEN ?? '');
  if (!id || !/^[0-9]{17,20}$/.test(id)) {
    console.error(
      'Give the application ID: npm run bot:invite-url -- --application-id=<id> (the Developer Portal, General Information), or set PLATFORM_BOT_TOKEN.',
    );
    process.exit(1);
  }
  console.log(inviteUrl(id));
  console.log(`\nScopes: ${SCOPES.join(', ')}. Permissions ${permissionsInteger()}:`);
  for (const p of PERMISSIONS) console.log(`  ${p.name.padEnd(20)} ${String(PermissionFlagsBits[p.name]).padStart(16)}  ${p.why}`);
}
