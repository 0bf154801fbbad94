/**
 * The internal checks the bot calls on guild events (behaviour §12): welcome
 * by DM and in a channel when a member joins, the leave message when one
 * leaves, autoroles and timed roles on join, and the timed-role catch-up.
 * A check with nothing to do answers 200 saying why; a disabled module is
 * 409 (`requireSettings`).
 */
import { AppError, platformFailed } from '#shared/errors.js';
import { PlatformCode, isPlatformError, platform } from '#shared/platform/client.js';
import { type CatchUpResult, cancelMemberGrants, catchUp, goOnCatchingUp, keepCatchingUp, scheduleJoinGrants } from './grants.js';
import { RESPONSE_SETTINGS, ResponseType, type ResponseTypeValue, type WelcomingSettings } from './model.js';
import { responseRecords } from './records.js';
import { pickResponse, renderResponse } from './render.js';
import { requireSettings } from './settings.js';

const WHAT: Record<ResponseTypeValue, string> = {
  [ResponseType.DmWelcome]: 'DM welcome',
  [ResponseType.ChannelWelcome]: 'welcome message',
  [ResponseType.ChannelLeave]: 'leave message',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Sends the response of `type` the settings choose, by DM or in the channel the settings name. */
async function sendResponse(guildId: string, memberId: string, type: ResponseTypeValue, settings: WelcomingSettings): Promise<string> {
  const rule = RESPONSE_SETTINGS[type];
  const what = WHAT[type];
  if (!settings[rule.enabled]) return `Nothing sent: ${rule.enabled} is off for guild ${guildId}.`;
  const channelId = rule.channel ? settings[rule.channel] : null;
  if (rule.channel && !channelId) return `Nothing sent: no ${rule.channel} is set for guild ${guildId}.`;
  // Oldest first, as the choice needs.
  const responses = (await responseRecords(guildId, type)).reverse();
  const response = pickResponse(responses, settings[rule.randomized], settings[rule.named]);
  if (!response) return `Nothing sent: guild ${guildId} has no response of type ${type} (${what}).`;

  const body = await renderResponse(guildId, memberId, response, type === ResponseType.ChannelLeave ? 'user' : 'member');
  if (channelId) {
    const message = await platform.createMessage(channelId, body);
    return `Sent ${what} '${response.response_id}' for member ${memberId} in channel ${channelId} (message ${message.id}).`;
  }
  try {
    const dm = await platform.createDm(memberId);
    await platform.createMessage(dm.id, body);
  } catch (error) {
    if (isPlatformError(error, { code: PlatformCode.CannotMessageUser })) {
      return `Not sent: member ${memberId} does not accept direct messages (platform code 50007), so the ${what} '${response.response_id}' was skipped.`;
    }
    throw error;
  }
  return `Sent ${what} '${response.response_id}' to member ${memberId} by direct message.`;
}

export async function welcomeByDm(guildId: string, memberId: string) {
  return { message: await sendResponse(guildId, memberId, ResponseType.DmWelcome, await requireSettings(guildId)) };
}

export async function welcomeInChannel(guildId: string, memberId: string) {
  return { message: await sendResponse(guildId, memberId, ResponseType.ChannelWelcome, await requireSettings(guildId)) };
}

/** A member left: their pending timed roles are cancelled first (whatever the settings), then the leave message. */
export async function memberLeft(guildId: string, memberId: string) {
  const settings = await requireSettings(guildId);
  const cancelled = (await cancelMemberGrants(guildId, memberId)).filter((grant) => grant.granted_at === undefined).length;
  const sent = await sendResponse(guildId, memberId, ResponseType.ChannelLeave, settings);
  return { message: cancelled > 0 ? `${sent} Cancelled ${plural(cancelled, 'pending timed role')} of member ${memberId}.` : sent };
}

/**
 * A member joined: every timed role is scheduled for them, then every
 * autorole is granted. Roles the platform refuses answer 502, naming them,
 * after the others were granted.
 */
export async function rolesOnJoin(guildId: string, memberId: string) {
  const settings = await requireSettings(guildId);
  const said: string[] = [];
  if (settings.timedroles_enabled) {
    const scheduled = await scheduleJoinGrants(guildId, memberId, Date.now());
    said.push(`Scheduled ${plural(scheduled, 'timed role')} for member ${memberId}.`);
  }
  if (settings.autorole_enabled) {
    const roles = settings.autorole_role_ids.split(',').filter(Boolean);
    const refused: string[] = [];
    for (const roleId of roles) {
      try {
        await platform.addMemberRole(guildId, memberId, roleId);
      } catch (error) {
        refused.push(`role ${roleId} (${error instanceof AppError ? error.reason : String(error)})`);
      }
    }
    if (refused.length > 0) {
      const granted = roles.length - refused.length;
      throw platformFailed(
        `The platform refused to grant ${refused.join('; ')} to member ${memberId}; the other ${plural(granted, 'autorole')} ${granted === 1 ? 'was' : 'were'} granted. ${said.join(' ')}`.trim(),
      );
    }
    said.push(`Granted ${plural(roles.length, 'autorole')} to member ${memberId}.`);
  }
  if (said.length === 0) return { message: `Nothing to do: autorole_enabled and timedroles_enabled are both off for guild ${guildId}.` };
  return { message: said.join(' ') };
}

function describeCatchUp(guildId: string, r: CatchUpResult): string {
  const later = r.owed - r.due;
  return (
    `Checked ${plural(r.members, 'member')} of guild ${guildId} (${plural(r.pages, 'page')}): ` +
    `${r.due} timed role${r.due === 1 ? ' was' : 's were'} due and handed to the scheduler to grant now, ${later} scheduled for later, ` +
    `${r.holding} already held` +
    (r.rescheduled > 0 ? `, ${r.rescheduled} overdue grant${r.rescheduled === 1 ? '' : 's'} scheduled again.` : '.') +
    (r.done ? '' : ' The rest of the member list is under way on the scheduler, from where this check stopped.')
  );
}

/**
 * `/check/role/timed`: catches up now, as far as one call's budget goes; a
 * pass it does not finish goes on at once on the scheduler, a finished one
 * keeps the guild's hourly catch-up going.
 */
export async function checkTimedRoles(guildId: string) {
  const settings = await requireSettings(guildId);
  if (!settings.timedroles_enabled) return { message: `Nothing to do: timedroles_enabled is off for guild ${guildId}.` };
  const result = await catchUp(guildId);
  if (result.timedRoles === 0) return { message: `Nothing to do: guild ${guildId} has no timed roles.` };
  await (result.done ? keepCatchingUp(guildId) : goOnCatchingUp(guildId));
  return { message: describeCatchUp(guildId, result) };
}
