/**
 * The settings routes every module with settings has (behaviour §5 and §11):
 * read, change, and the settings-delete operation (which modules without
 * settings have too). Each is one endpoint made here, one export per route
 * of `functions/<module>/basics.ts`, from the route's row (its schemas,
 * declared in the module's `routes.ts`: `file: 'functions/<module>/basics.ts'`
 * and `handler:` the export's name) and what the module says there: the
 * checks a change must pass, and what removing its data removes. The module
 * is the route's (`/modules/<module>/...`).
 */
import type * as z from 'zod/mini';
import { type Handler, endpoint } from '#shared/http/endpoint.js';
import type { guildBody, guildQuery } from '#shared/http/schemas.js';
import type { RouteSpec } from '#shared/http/route.js';
import { MODULE_CATALOGUE } from '../catalogue.js';
import { updateSettings } from '../settings.js';
import { requireEnabled, resetModule, settingsRecord } from '../state.js';

/** A basic route's row, with the schemas its maker reads. */
type Row<S> = RouteSpec & { id: string } & S;

/** `GET .../settings`: the module's settings record; the module must be enabled. */
export function settingsReadEndpoint(row: Row<{ query: typeof guildQuery }>): Handler {
  return endpoint(row, async ({ query, module }) => ({
    settings: settingsRecord(query.guild_id, await requireEnabled(query.guild_id, module!)),
  }));
}

/** The settings fields of a `PUT .../settings` body: all but `guild_id`. */
type Changes<B extends z.ZodMiniType> = Omit<z.output<B>, 'guild_id'>;

/**
 * `PUT .../settings`: changes only the fields given. A module whose changes
 * need checking (or turning into what is stored) names `prepare`, which gets
 * the settings the change applies to and answers the fields to store; the
 * write is then conditional on that settings version. Without it the fields
 * are written at once, as given.
 */
export function settingsUpdateEndpoint<B extends z.ZodMiniType<{ guild_id: string }>>(
  row: Row<{ body: B }>,
  prepare?: (guildId: string, changes: Changes<B>, current: Record<string, unknown>) => Promise<Record<string, unknown>> | Record<string, unknown>,
): Handler {
  return endpoint(row, async ({ body, module }) => {
    const { guild_id: guildId, ...changes } = body as z.output<B>;
    const read = prepare ? await requireEnabled(guildId, module!) : undefined;
    const stored = prepare ? await prepare(guildId, changes as Changes<B>, read!.settings ?? {}) : changes;
    return { settings: settingsRecord(guildId, await updateSettings(guildId, module!, stored, read)) };
  });
}

/**
 * The settings-delete operation, in any module state: the module reads as
 * disabled with no settings from the first step on, then `remove` deletes
 * its records and answers them by the keys the module's document lists.
 * The answer starts with the settings record it had (null when none) where
 * the module has settings (its defaults in the catalogue).
 */
export function settingsDeleteEndpoint(row: Row<{ body: typeof guildBody }>, remove: (guildId: string) => Promise<Record<string, unknown>>): Handler {
  return endpoint(row, async ({ body, module }) => {
    const settings = await resetModule(body.guild_id, module!);
    const removed = await remove(body.guild_id);
    return MODULE_CATALOGUE[module!].defaults ? { settings, ...removed } : removed;
  });
}
