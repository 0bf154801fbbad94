import { databaseFailed } from '../errors.js';
import type { ModuleName } from './names.js';
import { requireEnabled } from './state.js';
import { type ModuleStateItem, writeSettings } from './store.js';

/** Concurrent changes of one module's settings are retried this often before answering 503. */
const MAX_ATTEMPTS = 8;

/**
 * Changes some fields of a module's settings (PUT .../settings of every
 * module). The module must be enabled with settings (409 / SettingsError
 * otherwise). The write is conditional on the state item's version, so it
 * never overwrites a concurrent enable, disable, reset or change it did not
 * see; on a lost race it reads again and retries. Answers the new state.
 * `read`: the state the caller has just read (it checked the changes
 * against it), so the first attempt does not read it again.
 */
export async function updateSettings(guildId: string, module: ModuleName, changes: Record<string, unknown>, read?: ModuleStateItem): Promise<ModuleStateItem> {
  const fields = Object.entries(changes).filter(([, value]) => value !== undefined);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const state = attempt === 0 && read ? read : await requireEnabled(guildId, module);
    if (fields.length === 0) return state;
    const written = await writeSettings(guildId, module, fields, state.version);
    if (written) return written;
  }
  throw databaseFailed(`The ${module} settings of guild ${guildId} kept changing while being saved; try again.`);
}
