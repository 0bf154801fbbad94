import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../db/client.js';
import { isConditionFailed } from '../db/errors.js';
import { tableName } from '../db/table.js';
import { databaseFailed } from '../errors.js';
import type { ModuleName } from './names.js';
import { requireEnabled } from './state.js';
import { type ModuleStateItem, moduleStateKey } from './store.js';

/** Concurrent changes of one module's settings are retried this often before answering 503. */
const MAX_ATTEMPTS = 8;

/**
 * Changes some fields of a module's settings (PUT .../settings of every
 * module). The module must be enabled with settings (409 / SettingsError
 * otherwise). The write is conditional on the state item's version, so it
 * never overwrites a concurrent enable, disable, reset or change it did not
 * see; on a lost race it reads again and retries. Answers the new state.
 */
export async function updateSettings(guildId: string, module: ModuleName, changes: Record<string, unknown>): Promise<ModuleStateItem> {
  const fields = Object.entries(changes).filter(([, value]) => value !== undefined);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const state = await requireEnabled(guildId, module);
    if (fields.length === 0) return state;
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':version': state.version, ':now': new Date().toISOString(), ':one': 1, ':t': true };
    const sets = fields.map(([field, value], i) => {
      names[`#f${i}`] = field;
      values[`:v${i}`] = value;
      return `settings.#f${i} = :v${i}`;
    });
    try {
      const out = await db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: moduleStateKey(guildId, module),
          UpdateExpression: `SET ${sets.join(', ')}, updated_at = :now ADD version :one`,
          ConditionExpression: 'version = :version AND enabled = :t AND attribute_exists(settings)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return out.Attributes as ModuleStateItem;
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
  }
  throw databaseFailed(`The ${module} settings of guild ${guildId} kept changing while being saved; try again.`);
}
