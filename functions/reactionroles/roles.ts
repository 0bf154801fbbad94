/**
 * Granting and taking a member's roles on the platform, all or nothing: when
 * the platform refuses one role, the changes already made are reversed and
 * the refusal answers as a 502 naming the role.
 */
import { AppError, platformFailed } from '#shared/errors.js';
import { platform } from '#shared/platform/client.js';
import { errorField, log } from '#shared/observe/log.js';

interface Change {
  roleId: string;
  grant: boolean;
}

const apply = (guildId: string, memberId: string, change: Change) =>
  change.grant ? platform.addMemberRole(guildId, memberId, change.roleId) : platform.removeMemberRole(guildId, memberId, change.roleId);

function refused(memberId: string, change: Change, error: unknown): AppError {
  const why = error instanceof AppError ? error.reason : String(error);
  const what = change.grant ? `grant role ${change.roleId} to` : `take role ${change.roleId} from`;
  return platformFailed(`The platform refused to ${what} member ${memberId}, so nothing was changed: ${why}`);
}

/** Undoes changes that were made, newest first; a failure here is logged (the first refusal answers). */
async function reverse(guildId: string, memberId: string, done: Change[]): Promise<void> {
  for (const change of [...done].reverse()) {
    try {
      await apply(guildId, memberId, { roleId: change.roleId, grant: !change.grant });
    } catch (error) {
      log('error', 'could not reverse a role change', { guild_id: guildId, member_id: memberId, role_id: change.roleId, error: errorField(error) });
    }
  }
}

/** Grants `add` then takes `remove`; all of it happens, or none of it. Answers what was done. */
export async function changeRoles(guildId: string, memberId: string, add: string[], remove: string[]): Promise<Change[]> {
  const changes: Change[] = [...add.map((roleId) => ({ roleId, grant: true })), ...remove.map((roleId) => ({ roleId, grant: false }))];
  const done: Change[] = [];
  for (const change of changes) {
    try {
      await apply(guildId, memberId, change);
    } catch (error) {
      await reverse(guildId, memberId, done);
      throw refused(memberId, change, error);
    }
    done.push(change);
  }
  return done;
}

/** Puts back role changes made earlier by {@link changeRoles} (a later step of the request failed). */
export function undoRoleChanges(guildId: string, memberId: string, done: Change[]): Promise<void> {
  return reverse(guildId, memberId, done);
}
