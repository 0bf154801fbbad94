import { databaseFailed } from '../errors.js';
import type { ModuleName } from './names.js';
import { requireEnabled } from './state.js';
import { type ModuleStateItem, writeSettings } from './store.js';

/** Concurrent changes of one module's settings are retried this often before answering 503. */
const MAX_ATTEMPTS = 8;

/**
 * Changes some fields of a module's settings (PUT .../settings of every
 * module). The module must be enabled with settings (409 / SettingsError
 * otherwise). Answers the new state.
 *
 * Given `read`, the state the caller checked the changes against, the write
 * is conditional on its version, so it never lands on a state the check did
 * not see; on a lost race it reads again and retries. Without it, the
 * changes depend on nothing stored, so the first attempt writes them at
 * once, each field on its own (one request, no read): a concurrent change
 * of other fields stays, and of the same field the later write wins, as two
 * changes in turn would. When that write finds the module disabled or
 * without settings, the read answers why (or, enabled again meanwhile, the
 * write is retried on it).
 */
export async function updateSettings(guildId: string, module: ModuleName, changes: Record<string, unknown>, read?: ModuleStateItem): Promise<ModuleStateItem> {
  const fields = Object.entries(changes).filter(([, value]) => value !== undefined);
  if (!read && fields.length > 0) {
    const written = await writeSettings(guildId, module, fields, null);
    if (written) return written;
  }
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const state = attempt === 0 && read ? read : await requireEnabled(guildId, module);
    if (fields.length === 0) return state;
    const written = await writeSettings(guildId, module, fields, state.version);
    if (written) return written;
  }
  throw databaseFailed(`The ${module} settings of guild ${guildId} kept changing while being saved; try again.`);
}
